"""Issue 22, row 1: a seat the computer plays belongs to the computer. It has no join code,
the OLED never offers one for it (not by itself, not on the pages button C turns to), and its
view is served to no phone: not one that joins with a code shown before the computer sat
down, nor one that held the seat before."""

from __future__ import annotations

import pytest

from companion.mat import oled as oled_words
from companion.table.errors import Forbidden

from computer_helpers import set_up
from test_computer_web import joined, site  # noqa: F401  (the fixture)
from waiting import wait_for


def oled(companion) -> tuple[str, ...]:
    companion._thread.call(lambda: None)
    return tuple(companion.view(None)["oled"])


@pytest.mark.parametrize("variant, computer", [("shadow", "blue"), ("light", "red"), ("light", "blue")])
def test_the_computers_seat_has_no_join_code_and_its_view_is_never_served(site, variant, computer):  # noqa: F811
    companion, hw, app = site
    human = "red" if computer == "blue" else "blue"
    early = companion.join_url(computer).rsplit("/J/", 1)[1]     # a code shown before
    before = joined(app, companion, computer)                    # a phone that held the seat
    companion.submit(None, {"type": "new_game", "variant": variant, "seed": 11,
                            "computer": {computer: "easy"}})
    set_up(companion, hw)
    phone = joined(app, companion, human)
    wait_for(lambda: companion.view(None)["game"]["status"] == "playing")
    # The computer places its Ninja on its own time: page only once it has, or its move, not
    # the button, may be the change a press waits for (and the pages then run one behind).
    wait_for(lambda: companion.view(None)["table"]["to_act"] == [human])
    shown = [oled(companion)]
    for _ in range(3):                       # the OLED by itself, then every page C turns to
        companion.sim_button("C")
        wait_for(lambda: oled(companion) != shown[-1])
        shown.append(oled(companion))
    assert oled_words.join_lines(computer) not in shown
    assert oled_words.join_lines(human) in shown            # the human's own code is paged to
    with pytest.raises(Forbidden):
        companion.join_url(computer)
    assert app.test_client().get(f"/J/{early}").status_code == 403
    for path in ("/seat/view", "/seat/events", "/seat/record"):
        assert before.get(path).status_code == 403, path
    assert phone.get("/seat/view").get_json()["table"]["seat"] == human
