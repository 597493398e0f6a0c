// Redraw in place: bring the element on the page to look like a freshly built copy, keeping every
// node the new copy repeats. A move changes a few numbers on a table of some 1,600 elements; the
// browser then restyles, lays out and paints what changed, not the whole page, and the node a
// reader is in (focus, scroll, a text selection) stays the same node.
//
// The rules that keep this safe for code that builds with h() (dom.js):
// - a node equal to its new copy (isEqualNode: tag, attributes, text, the whole subtree) is kept;
// - an element built with a handler (dom.js HANDLED) is never patched: unless equal, the new one
//   takes its place, handler and all. A kept handler reads only what its element shows and the
//   screen it calls (a handler that closes over other state must not rely on being rebuilt);
// - a form field (input, select, textarea) is replaced unless its value is the same too, since a
//   value set as a property is not an attribute isEqualNode sees;
// - children are matched in order; one left out or put in is recognised by its tag, id, test id,
//   data-key and class, so that a banner coming or going does not shift every later sibling.
import { HANDLED } from "./dom.js";

const FIELDS = new Set(["INPUT", "SELECT", "TEXTAREA"]);

function ident(n) {
  if (n.nodeType !== 1) return "#" + n.nodeType;
  return [n.nodeName, n.id, n.getAttribute("data-testid"), n.getAttribute("data-key"), n.getAttribute("class")].join("|");
}

function sameField(a, b) {
  return a.value === b.value && a.checked === b.checked;
}

function syncAttributes(el, next) {
  for (const { name } of [...el.attributes]) if (!next.hasAttribute(name)) el.removeAttribute(name);
  for (const { name, value } of next.attributes) if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

// `old` is on the page, `next` freshly built (off the page). Returns the node now on the page.
export function morph(old, next) {
  if (old === next) return old;
  if (old.nodeType !== next.nodeType || old.nodeName !== next.nodeName) {
    old.replaceWith(next);
    return next;
  }
  if (old.nodeType === 3 || old.nodeType === 8) {
    if (old.data !== next.data) old.data = next.data;
    return old;
  }
  if (old.isEqualNode(next) && (!FIELDS.has(old.nodeName) || sameField(old, next))) return old;
  if (HANDLED.has(old) || HANDLED.has(next) || FIELDS.has(old.nodeName)) {
    old.replaceWith(next);
    return next;
  }
  syncAttributes(old, next);
  morphChildren(old, next);
  return old;
}

function morphChildren(el, next) {
  const want = [...next.childNodes];
  let cur = el.firstChild;
  for (let i = 0; i < want.length; i++) {
    const n = want[i];
    if (cur && ident(cur) !== ident(n)) {
      // one node left out of the new copy: drop it; one put in: insert it before the current one
      const after = cur.nextSibling;
      if (after && ident(after) === ident(n)) {
        cur.remove();
        cur = after;
      } else if (i + 1 < want.length && ident(want[i + 1]) === ident(cur)) {
        el.insertBefore(n, cur);
        continue;
      }
    }
    if (!cur) {
      el.append(n);
      continue;
    }
    const after = cur.nextSibling;
    morph(cur, n);
    cur = after;
  }
  while (cur) {
    const after = cur.nextSibling;
    cur.remove();
    cur = after;
  }
}
