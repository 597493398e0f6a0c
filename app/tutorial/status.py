"""Where a profile stands with the guided first game (``GuideStatus``): stored on the profile,
so defined with the database models (app/db/guide_status.py); the tutorial names it here too."""

from app.db.guide_status import GuideStatus

__all__ = ["GuideStatus"]
