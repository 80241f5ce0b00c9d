"""``onitama-companion export FILE`` / ``import FILE``: all games as one file of records, read
back, a damaged record refused with its reason."""

import json
import sqlite3
import stat

from companion.cli import main
from companion.table.store import GameStore


def games_of(path) -> list[tuple]:
    store = GameStore(path)
    out = [(g.created, g.header, g.result, [(a.seat, a.action, a.at) for a in g.actions])
           for g in store.all_games()]
    store.close()
    return out


def test_export_then_import_gives_the_same_games(saved, tmp_path, capsys):
    backup = tmp_path / "backup.jsonl"
    assert main(["export", str(backup), "--state", str(saved.parent)]) == 0
    assert stat.S_IMODE(backup.stat().st_mode) == 0o600      # hidden moves are in it
    lines = backup.read_text().splitlines()
    assert json.loads(lines[0])["format"] == "onitama-companion games" and len(lines) == 3
    other = tmp_path / "other"
    assert main(["import", str(backup), "--state", str(other)]) == 0
    assert "2 games added, 0 already saved, 0 refused" in capsys.readouterr().out
    assert games_of(other / "games.db") == games_of(saved)
    # Imported twice: nothing doubled.
    assert main(["import", str(backup), "--state", str(other)]) == 0
    assert "0 games added, 2 already saved" in capsys.readouterr().out
    assert len(games_of(other / "games.db")) == 2


def test_import_refuses_each_damaged_record_with_its_reason(saved, tmp_path, capsys):
    backup = tmp_path / "backup.jsonl"
    assert main(["export", str(backup), "--state", str(saved.parent)]) == 0
    head, finished, unfinished = backup.read_bytes().splitlines()
    record = json.loads(unfinished)
    no_start = dict(record, header={k: v for k, v in record["header"].items() if k != "start"})
    illegal = dict(record, actions=[["red", "Tiger a1a5", 1.0]])
    bad_action = dict(record, actions=[["red", 5, 1.0]])
    backup.write_bytes(b"\n".join([head, finished, b'{"id": 3, "created": ', json.dumps(no_start).encode(),
                                   json.dumps(illegal).encode(), unfinished.replace(b"Tiger", b"Tig\xff"),
                                   json.dumps(bad_action).encode(), unfinished]) + b"\n")
    other = tmp_path / "other"
    assert main(["import", str(backup), "--state", str(other)]) == 1
    out = capsys.readouterr()
    assert "2 games added, 0 already saved, 5 refused" in out.out
    refusals = out.err.splitlines()
    assert refusals[0].startswith("line 3: refused: not valid JSON")
    assert refusals[1] == "line 4: refused: the header has no start"
    assert refusals[2].startswith("line 5: refused: action 0 ('Tiger a1a5') does not replay")
    assert refusals[3] == "line 6: refused: not valid UTF-8 text"
    assert refusals[4] == "line 7: refused: action 0 is not [seat, notation, time]"
    assert games_of(other / "games.db") == games_of(saved)


def test_a_file_that_is_not_a_backup_is_refused_whole(tmp_path, capsys):
    wrong = tmp_path / "x.json"
    wrong.write_text('{"variant": "base"}\n')
    assert main(["import", str(wrong), "--state", str(tmp_path / "s")]) == 2
    assert "not a backup of saved games" in capsys.readouterr().err


def test_export_reports_a_damaged_game_and_writes_the_others(saved, tmp_path, capsys):
    db = sqlite3.connect(saved)
    db.execute("UPDATE games SET header = '{' WHERE id = 1")
    db.commit()
    db.close()
    backup = tmp_path / "backup.jsonl"
    assert main(["export", str(backup), "--state", str(saved.parent)]) == 1
    assert "not exported: game 1 is damaged: the header is not valid JSON" in capsys.readouterr().err
    assert [json.loads(line).get("id") for line in backup.read_text().splitlines()[1:]] == [2]
