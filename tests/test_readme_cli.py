"""The command table (docs/cli.md, where the README sends readers) names every command and
every one of its options, and the README says how a real phone reaches the simulation."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
CLI_DOC = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")


def _help(*args: str) -> str:
    run = subprocess.run([sys.executable, "-m", "companion.cli", *args, "--help"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_every_command_and_option_is_in_the_command_table():
    assert "docs/cli.md" in README
    table = CLI_DOC[CLI_DOC.index("| command | what it does |"):]
    table = table[:table.index("\n\n")]
    rows = {re.match(r"\| `(\w+)", line)[1]: line for line in table.splitlines()[2:]}
    commands = re.findall(r"^    (\w+)\s{2,}", _help(), re.M)
    assert commands and set(commands) == set(rows)
    seen = 0
    for command in commands:
        # An option and its aliases share a line of the help ("--way WAY, --variant WAY"): the
        # table names one of them (--variant is kept for scripts that still say it).
        spellings = [re.findall(r"(--[a-z][a-z-]*)", line)
                     for line in re.findall(r"^  (--[a-z].*?)(?:  |$)", _help(command), re.M)]
        seen += len(spellings)
        missing = [names for names in spellings
                   if names and "--help" not in names and not any(o in rows[command] for o in names)]
        assert not missing, f"{command}: {missing} not in docs/cli.md"
    assert seen > 20            # the options were found in the help at all


def test_the_readme_says_how_a_phone_reaches_the_simulation():
    assert "--host 0.0.0.0" in README and "port 8080" in README
