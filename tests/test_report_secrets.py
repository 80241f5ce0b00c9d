"""Issue 22, row 6: ``report`` removes every secret of ``config.toml``, whatever its TOML form,
and the simulation's table link secret from the log."""

from __future__ import annotations

import io
import tomllib
import zipfile

import pytest

from companion.report import REDACTED, build, redact_config, redact_log

WIFI = "Hx7Qw-ErTy9Zk"

FORMS = {
    "inline table": f'[network]\nhotspot = {{ ssid = "Onitama-AB12", password = "{WIFI}" }}\n',
    "quoted key": f'[network]\n"wifi password" = "{WIFI}"\nssid = "Onitama-AB12"\n',
    "quoted dotted key": f'network."hotspot".password = "{WIFI}"\n',
    "multi-line string": f'[network]\npassword = """\n{WIFI[:5]}\\\n   {WIFI[5:]}"""\n',
    "literal multi-line": f"[network]\npsk = '''\n{WIFI}'''\n",
    "a table of secrets": f'[network.password]\nvalue = "{WIFI}"\n',
    "an array": f'[network]\ntokens = ["{WIFI}", "other"]\n',
}


@pytest.mark.parametrize("form", FORMS)
def test_every_form_of_a_secret_key_is_redacted(form):
    text, secrets = redact_config(FORMS[form])
    assert WIFI not in text and WIFI[:5] not in text
    assert any(WIFI in s for s in secrets)
    # What is left is still TOML, with the settings that are not secret.
    tree = tomllib.loads(text)
    assert REDACTED in repr(tree)
    if "ssid" in FORMS[form]:
        assert "Onitama-AB12" in repr(tree)


def test_a_config_that_does_not_parse_is_left_out_whole():
    text, _ = redact_config(f'[network]\npassword = "{WIFI}\nssid = "x"\n')
    assert WIFI not in text and "does not parse" in text


def unzip(data: bytes) -> str:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return "\n".join(z.read(name).decode() for name in z.namelist())


def test_the_zip_holds_neither_the_password_nor_the_table_link(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text(FORMS["inline table"])
    log = tmp_path / "sim.log"
    log.write_text("serving on http://127.0.0.1:8080\n"
                   "table link (another device as the table): http://192.168.1.5:8080/sim?table=Zq3_x-Y8kLmN0pQr\n"
                   f"wifi up with {WIFI}\n")
    data, _ = build(config, tmp_path / "state", log, None, tmp_path / "none.toml")
    everything = unzip(data)
    assert WIFI not in everything and "Zq3_x-Y8kLmN0pQr" not in everything
    assert f"/sim?table={REDACTED}" in everything


def test_the_table_link_is_cut_out_of_a_log():
    assert redact_log("open /sim?a=1&table=abc-DEF_123 now", []) == f"open /sim?a=1&table={REDACTED} now"
