"""What is known of a template database (its sidecar record: key, Odoo version, what it holds, when
it was built and used) and what a clone from the cache came to."""

from __future__ import annotations

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


@dataclass(frozen=True)
class CloneOutcome:
    status: Literal["hit", "built", "build_failed"]
    template: str
    build_seconds: float = 0.0
    build_database: str = ""  # the scratch database a failed build used (already dropped)
    spare: bool = False  # the clone was prepared ahead of time (refill_spare)
    rebuilt_because: str = ""  # an existing template was refused (see ``clone``'s accept)
