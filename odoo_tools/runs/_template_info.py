"""What is known of a template database (its sidecar record: key, Odoo version, what it holds, when
it was built and used), which recorded template a new one can be layered on, the callbacks a
clone takes (build, accept) and what a clone from the cache came to."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field


class TemplateInfo(BaseModel):
    """One template database, as recorded in its sidecar file."""

    name: str
    key: str
    odoo_version: str = ""
    demo: bool = False
    modules: list[str] = Field(default_factory=list, description="The dependencies we predicted")
    held: list[str] | None = Field(
        default=None,
        description="What the template really holds (installed or left in a transient state), read "
        "from its ir_module_module after the build; None: recorded before this was kept",
    )
    unlocated: list[str] = Field(
        default_factory=list, description="Held modules with no folder in the build's addons (Odoo's own)"
    )
    extras_digest: str = Field(default="", description="sha1 of the held modules we did not predict")
    created: float = 0.0
    last_used: float = 0.0
    build_seconds: float = 0.0
    built_on: str = Field(
        default="", description="The template this one was layered on; '': built from empty"
    )
    orphan: bool = Field(default=False, description="Database without a record (or the reverse)")


# Installs the dependencies into a scratch database; False if that failed, else True (the
# record passed to ``clone`` is kept) or the record to keep (what the template really holds).
BuildFn = Callable[[str], Awaitable[bool | TemplateInfo]]
# Says why a recorded template must not serve this run ("" when it may).
AcceptFn = Callable[[TemplateInfo], str]


def layer_base(templates: list[TemplateInfo], info: TemplateInfo) -> TemplateInfo | None:
    """The template a new one can be built on: same Odoo and demo flag, holding nothing the new
    one will not hold (installing the rest into a copy of it gives what an install from empty
    gives), the largest such. Only valid while the files of the modules it holds are unchanged:
    its key covered their bytes when it was built, the new key covers them now."""
    wanted = set(info.modules)
    fits = [
        t
        for t in templates
        if not t.orphan
        and t.held is not None
        and t.odoo_version == info.odoo_version
        and t.demo == info.demo
        and set(t.held) <= wanted
    ]
    return max(fits, key=lambda t: (len(t.held or ()), t.name), default=None)


@dataclass(frozen=True)
class CloneOutcome:
    status: Literal["hit", "built", "build_failed"]
    template: str
    build_seconds: float = 0.0
    build_database: str = ""  # the scratch database a failed build used (already dropped)
    spare: bool = False  # the clone was prepared ahead of time (refill_spare)
    rebuilt_because: str = ""  # an existing template was refused (see ``clone``'s accept)
