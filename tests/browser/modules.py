"""Scripts a test runs in a page of the client that import the client's modules.

The page loads its modules under its version (``/v/<version>/js/…``, app/web/build.py). A script
that imported ``/js/i18n.js`` would get a second copy of the module, without the language the
page loaded; ``own_modules`` makes the script import the page's own copies instead.
"""

from __future__ import annotations

# The folder of the page's first module (its <script type="module">), ending in "/".
PAGE_JS = "document.querySelector('script[type=module]').src.replace(/[^/]*$/, '')"


def own_modules(script: str) -> str:
    """``script`` with each ``import('/js/x.js')`` made an import of the page's own copy."""
    return script.replace("import('/js/", f"import({PAGE_JS} + '")
