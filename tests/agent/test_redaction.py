"""Secrets never printed: the one redaction, over a corpus of token formats and env values.

Every fake token is built here at run time from pieces, so that no secret-looking string is
committed: the repository's own secret scan must stay quiet.
"""

from __future__ import annotations

import base64
import random
import string

import pytest

from assista_mcp.safety.redaction import REDACTED, Redactor, encoded_forms, redact, secret_values

ALNUM = string.ascii_letters + string.digits


def _rand(n: int, alphabet: str = ALNUM, seed: int = 0) -> str:
    picker = random.Random(seed * 1000 + n)
    return "".join(picker.choice(alphabet) for _ in range(n))


def _jwt() -> str:
    head = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').decode().rstrip("=")
    body = base64.urlsafe_b64encode(b'{"sub":"1234567890","name":"x"}').decode().rstrip("=")
    return f"{head}.{body}.{_rand(43, ALNUM + '-_')}"


def _private_key() -> str:
    kind = "RSA " + "PRIVATE KEY"
    return f"-----BEGIN {kind}-----\n{_rand(64)}\n{_rand(64)}\n-----END {kind}-----"


CORPUS: list[tuple[str, str]] = [
    ("github classic", "gh" + "p_" + _rand(36)),
    ("github oauth", "gh" + "o_" + _rand(36)),
    ("github server", "gh" + "s_" + _rand(36)),
    ("github fine-grained", "github" + "_pat_" + _rand(22) + "_" + _rand(59)),
    ("gitlab", "gl" + "pat-" + _rand(20)),
    ("slack bot", "xo" + "xb-" + _rand(11, string.digits) + "-" + _rand(24)),
    ("slack user", "xo" + "xp-" + _rand(11, string.digits) + "-" + _rand(32)),
    ("slack webhook", "https://hooks.slack.com/services/T" + _rand(8) + "/B" + _rand(8) + "/" + _rand(24)),
    ("aws key id", "AK" + "IA" + _rand(16, string.ascii_uppercase + string.digits)),
    ("aws session key id", "AS" + "IA" + _rand(16, string.ascii_uppercase + string.digits)),
    ("jwt", _jwt()),
    ("openai", "s" + "k-" + _rand(48)),
    ("openai project", "s" + "k-proj-" + _rand(40, ALNUM + "_-")),
    ("anthropic", "s" + "k-ant-api03-" + _rand(90, ALNUM + "_-")),
    ("stripe", "s" + "k_live_" + _rand(24)),
    ("google api", "AI" + "za" + _rand(35, ALNUM + "_-")),
    ("google oauth", "ya" + "29." + _rand(60, ALNUM + "_-")),
    ("huggingface", "h" + "f_" + _rand(34)),
    ("npm", "np" + "m_" + _rand(36)),
    ("pypi", "py" + "pi-AgEIcHlwaS5vcmc" + _rand(60, ALNUM + "_-")),
    ("sendgrid", "S" + "G." + _rand(22, ALNUM + "_-") + "." + _rand(43, ALNUM + "_-")),
    ("digitalocean", "do" + "p_v1_" + _rand(64, "0123456789abcdef")),
    ("telegram", _rand(9, string.digits) + ":AA" + _rand(33, ALNUM + "_-")),
]

IN_CONTEXT: list[tuple[str, str, str]] = [  # (name, text, the secret in it)
    ("bearer header", "Authorization: Bearer " + (t := _rand(40, ALNUM + "._-")), t),
    (
        "basic auth",
        "Authorization: Basic " + (t := base64.b64encode(b"me:" + _rand(16).encode()).decode()),
        t,
    ),
    ("private key", (t := _private_key()), t),
    ("url password", "postgresql://odoo:" + (t := _rand(14)) + "@db:5432/odoo", t),
    ("PGPASSWORD", "env: PGPASSWORD=" + (t := _rand(4)) + " psql", t),  # short: only in context
    ("odoo.conf", "[options]\ndb_password = " + (t := _rand(12)) + "\n", t),
    ("aws secret", "aws_secret_access_key = " + (t := _rand(40, ALNUM + "/+")), t),
    ("azure", "DefaultEndpointsProtocol=https;AccountKey=" + (t := _rand(44, ALNUM + "+/")) + ";", t),
]


@pytest.mark.parametrize(("name", "token"), CORPUS, ids=[c[0] for c in CORPUS])
def test_token_formats_are_redacted(name: str, token: str) -> None:
    text = f"tool said: {token} (done)"
    out = Redactor().text(text)
    assert token not in out and "[redacted:" in out and out.startswith("tool said: ")


@pytest.mark.parametrize(("name", "text", "secret"), IN_CONTEXT, ids=[c[0] for c in IN_CONTEXT])
def test_secrets_in_context_are_redacted(name: str, text: str, secret: str) -> None:
    assert secret not in Redactor().text(text)


def test_the_corpus_is_large_enough() -> None:
    assert len(CORPUS) + len(IN_CONTEXT) >= 20


def test_env_secret_values_also_base64_encoded_at_any_offset() -> None:
    key = _rand(51, seed=7)
    token = _rand(32, seed=8)
    env = {
        "OPENAI_API_KEY": key,
        "ASSISTA_AUTH_TOKEN": token,
        "PGPASSWORD": "pw" + _rand(10),
        "HOME": "/home/me",
    }
    redactor = Redactor(secret_values(env))
    for prefix in ("", "a", "ab", "Authorization: Bearer "):  # every byte offset inside a blob
        blob = base64.b64encode(f"{prefix}{key} and {token}\n".encode()).decode()
        out = redactor.text(f"result: {blob}")
        for form in encoded_forms(key)[:1] + encoded_forms(token)[:1]:
            assert form not in out
        decoded_len = len(base64.b64encode(key.encode()).decode()) // 2
        assert not any(blob[i : i + decoded_len] in out for i in range(0, len(blob) - decoded_len, 4))
    urlsafe = base64.urlsafe_b64encode(key.encode()).decode()
    assert urlsafe.rstrip("=")[:-4] not in redactor.text(urlsafe)
    assert redactor.text(f"{key} {env['PGPASSWORD']} /home/me") == f"{REDACTED} {REDACTED} /home/me"


def test_ordinary_odoo_text_is_left_alone() -> None:
    code = (
        "password = fields.Char(string='Password')\n"
        "api_key = fields.Char(groups='base.group_system')\n"
        "token = self.env['ir.config_parameter'].sudo().get_param('x')\n"
        "sha = 'da39a3ee5e6b4b0d3255bfef95601890afd80709'\n"
        "uuid = '123e4567-e89b-12d3-a456-426614174000'\n"
        "url = 'https://www.odoo.com/documentation/18.0/'\n"
        "skip = 'sk-short'\n"
    )
    assert Redactor().text(code) == code


def test_data_is_redacted_everywhere(monkeypatch: pytest.MonkeyPatch) -> None:
    secret = _rand(30, seed=3)
    monkeypatch.setenv("ANTHROPIC_API_KEY", secret)
    data = {"text": f"k={secret}", "items": [secret, ("x", secret)], secret: 1, "n": 3}
    assert secret not in repr(Redactor(secret_values()).data(data))
    assert redact(f"error with {secret}") == f"error with {REDACTED}"
