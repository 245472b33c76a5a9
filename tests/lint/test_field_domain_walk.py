"""The field-domain check visits only statements (speed): the classes ast.walk finds, in its order."""

from __future__ import annotations

import ast

from odoo_tools.lint._static.field_domains import _classes, _may_name_domain

NESTED = """
try:
    class T0: pass
except ValueError:
    class A: pass
else:
    class T1: pass
finally:
    class T2: pass
match x:
    case 1:
        class B: pass
if y:
    def f():
        class C: pass
else:
    with z:
        class D:
            class E: pass
class Z:
    class Y: pass
"""


def test_classes_as_ast_walk_finds_them() -> None:
    tree = ast.parse(NESTED)
    expected = [n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    assert [c.name for c in _classes(tree)] == expected
    assert len(expected) == 10


def test_prefilter_keeps_every_file_that_may_spell_domain() -> None:
    assert _may_name_domain(b"x = fields.Many2one('a', domain=[])")
    assert not _may_name_domain(b"x = fields.Char()")
    # NFKC: a fullwidth letter is the same identifier to Python, so such a file is parsed
    spelled = "x = f(\uff44omain=1)".encode()
    assert _may_name_domain(spelled)
    assert ast.parse(spelled).body[0].value.keywords[0].arg == "domain"  # type: ignore[attr-defined]
