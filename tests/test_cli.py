"""The command line as a user runs it: output, exit status, and no tracebacks."""

import json
import subprocess
import sys

from companion.rules.deal import fixed_deal
from companion.rules.record import GameRecord

START = "bbBbb/5/5/5/rrRrr red Ox,Boar Horse,Elephant Crab"


def run(*args):
    proc = subprocess.run([sys.executable, "-m", "companion.cli", *args],
                          capture_output=True, text=True, timeout=120)
    assert "Traceback" not in proc.stderr
    return proc


def test_perft_prints_the_number_alone_on_the_last_line():
    proc = run("perft", START, "3")
    assert proc.returncode == 0 and proc.stdout.splitlines()[-1] == "1989"


def test_perft_divide():
    lines = run("perft", START, "2", "--divide").stdout.splitlines()
    assert lines[-1] == "130" and len(lines) == 11
    assert sum(int(line.rsplit(": ", 1)[1]) for line in lines[:-1]) == 130


def test_bad_input_is_one_line_and_status_2():
    proc = run("perft", "bbBbb/5/5/5/rrRrr red Ox,Boar Horse,Elephant", "2")
    assert proc.returncode == 2 and proc.stderr.startswith("error: position string")


def test_cards_json_prints_the_table():
    table = json.loads(run("cards", "--json").stdout)
    assert len(table) == 57
    kumo = next(c for c in table if c["name"] == "Kumo")
    assert set(kumo) == {"name", "set", "stamp", "moves", "wind_moves", "master_moves",
                         "student_moves", "move_only", "capture_only"}
    assert kumo["moves"] is None and kumo["student_moves"] == [[-1, 1], [1, 1]]


def test_cards_with_a_bad_custom_file(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"cards": [{"name": "Heron", "moves": [[9, 9]]}]}))
    proc = run("cards", "--custom", str(path))
    assert proc.returncode == 2 and "card 'Heron'" in proc.stderr


def test_replay(tmp_path):
    record = GameRecord.from_deal(fixed_deal(["Tiger", "Crab"], ["Monkey", "Crane"], "Dragon"))
    record.moves = ["Tiger c1c3", "Crane a5a4"]
    record.save(tmp_path / "ok.json")
    proc = run("replay", str(tmp_path / "ok.json"))
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[-1] == "1bBbb/b4/2R2/5/rr1rr red Dragon,Crab Monkey,Tiger Crane"
    record.moves = ["Tiger c1c3", "Tiger c5c3"]
    record.save(tmp_path / "bad.json")
    proc = run("replay", str(tmp_path / "bad.json"))
    assert proc.returncode == 1 and "move 2 (Blue) 'Tiger c5c3' is illegal" in proc.stdout
    (tmp_path / "junk.json").write_text("{")
    assert run("replay", str(tmp_path / "junk.json")).returncode == 2


def test_deal_prints_a_position():
    proc = run("deal", "--way", "wind", "--wind-cards", "5", "--seed", "1")
    assert proc.returncode == 0 and proc.stdout.startswith("bbBbb/5/2W2/5/rrRrr ")
    # --variant, the older name of --way, still works for the scripts that say it.
    assert run("deal", "--variant", "wind", "--wind-cards", "5", "--seed", "1").stdout == proc.stdout
