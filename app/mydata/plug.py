"""Download my data, delete my profile."""

from __future__ import annotations

from app.mydata import endpoints
from app.mydata.service import MyData
from app.parts import Parts
from app.plug import Core, Feature


def plug(core: Core, parts: Parts) -> Feature:
    my_data = MyData(core.db, core.hub, core.clock)
    return Feature("mydata", parts={"my_data": my_data}, routers=[endpoints.router])
