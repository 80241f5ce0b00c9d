"""Two exception roots: OnitamaError is bad input to the rules; CompanionError is the rest of
what the project raises on purpose (the save file, the settings, a trace, the service's
refusals). A full disk is not an illegal move."""

import pytest

from companion.rules.errors import OnitamaError
from companion.table.config import ConfigError
from companion.table.errors import REFUSALS, BadRequest, CompanionError, Conflict
from companion.table.replay import ReplayError
from companion.table.saved import StoreDamaged, StoreUnavailable
from companion.tracetool import TraceError


@pytest.mark.parametrize("kind", [StoreUnavailable, StoreDamaged, ConfigError, ReplayError,
                                  TraceError, BadRequest, Conflict])
def test_the_projects_own_errors_are_not_rules_errors(kind):
    assert issubclass(kind, CompanionError) and not issubclass(kind, OnitamaError)
    assert issubclass(kind, REFUSALS)


def test_the_command_line_reports_either_kind_as_one_line(tmp_path, capsys):
    from companion import cli
    bad = tmp_path / "trace.jsonl"
    bad.write_text("{\n")
    assert cli.main(["trace", str(bad)]) == 2                   # a CompanionError
    assert capsys.readouterr().err.startswith("error: line 1: not JSON")
    assert cli.main(["perft", "nonsense", "1"]) == 2           # an OnitamaError
    assert capsys.readouterr().err.startswith("error: ")
