"""The trace tool: the hand-written corpus, the command line, recording, and the acceptance run
over generated games: every category of hands (tests/support/tracegen.py, habits.py), scored as
issue 21 measures (tests/support/tracescore.py): the record that stands is the game played,
no wrong commit, no wedge, no commit before rest, each commit within 0.5 s of rest."""

import io
import json
import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from habits import HABITS
from tracegen import CATEGORIES, GeneratedGame, Score, Turn, generate_game, variant_for
from companion.mat.tracerecord import TraceRecorder
from companion.rules.board import Board
from companion.rules.squares import parse_square
from companion.tracetool import SETTLE_S, parse_trace, replay

TRACES = Path(__file__).parent / "traces"
# Traces judged on the record that stands (NAME.record.json: the turns played, with the times of
# their hands) rather than event by event: the stories of issue 21.
STORIES = sorted(p.with_name(p.name.replace(".record.json", ".jsonl"))
                 for p in TRACES.glob("*.record.json"))
CORPUS = sorted(p for p in TRACES.glob("*.jsonl")
                if not p.name.endswith(".expected.jsonl") and p not in STORIES)
# Every case of issue 5 has a hand-written trace.
CASES = {
    "plain_move", "capture_own_first", "capture_captured_first", "capture_captured_last",
    "hesitation", "brushed_neighbour", "capture_brush_is_not_capture", "spirit_move",
    "swap_spirit_first", "swap_student_first", "swap_lifted_and_set_back_apart",
    "wind_card_both_steps", "wind_card_step_and_swap", "wind_card_may_go_on", "two_cards_prompt",
    "pass_prompt", "takeback", "mismatch_then_synced", "mismatch_corrected_into_move",
    "winner_stream",
}
# One minimal trace per failure of issue 12 (each failed on the recognizer before it).
ISSUE_12 = {
    "wind_may_go_on_next_hand_answers", "wind_may_go_on_reply_asked", "fast_reply",
    "wrong_square_amended", "capture_aside_on_origin_wins", "takeback_capture_captured_first",
    "put_back_then_spirit_move",
    # Found by the table robot: a Spirit swap's student moved on by a Wind Spirit card was read
    # as the swap amended, and the Spirit's step then wedged the mat.
    "swap_student_stepped_on_waits_for_the_spirit",
}
# One minimal trace per story of issue 21 (each fails on the recognizer before it), cut from the
# generator's games: the story's number first.
ISSUE_21 = {
    "story1_spirit_moved_straight_back", "story2_whose_step_settled_by_the_next_move",
    "story3_which_card_left_open", "story3_which_card_answered_late",
    "story4_reply_lifts_the_pawn_it_captures", "story4_reply_lifts_the_spirit_just_placed",
    "story5_wind_card_taken_back_spirit_first", "story6_captured_pawn_set_down_for_a_moment",
    "story7_knocked_neighbour_is_no_capture", "story8_spirit_step_after_an_amendment",
    "story9_pawn_step_committed_as_the_spirit_lifts",
    # Story 3's late answers as a table hears them: one naming a turn no question offered is
    # refused, as the table refuses it (session 42, late-answer 88).
    "late_answer_to_a_question_never_asked_is_refused_as_the_table_does",
}
# One minimal trace per game the table robot's hands failed on the hypothesis recognizer
# (tests/mat/robot-traces/, cut to the turn read wrong, at the robot's settle time of 0.06 s):
# the Spirit lifted in the scan its pawn step lands, then put back for a moment (wind1 102,
# wind5 104), a Wind card's step and Spirit lift in one scan, then a swap (wind2 103), a pawn
# carried straight to the square its own Spirit step swaps it to (wind4 101); a swap whose two
# pieces land in one scan, right after a Wind card's turn whose pawn and Spirit the maps could
# read either way, with the turns' captured pieces off the mat (wind3 103, session 35). Session
# 47 (wind2 mat 9): Blue answers "Eel" (the reply that moved Red's Octopus b1a2 a4b4's Spirit
# straight back), then Red's Rabbit a2c2 lifts a2 and Blue's c2 30 ms apart (no proof Red
# started): read as Elephant b1c2 from the anchor, taking back Octopus and the Eel answered.
ROBOT = {
    "robot_spirit_put_back_as_its_pawn_lands", "robot_spirit_put_back_pawn_step_part_way",
    "robot_swap_after_step_and_spirit_lift_in_one_scan", "robot_pawn_carried_where_the_spirit_swaps_it",
    "robot_swap_in_one_scan_beside_captured_pieces",
    "robot_answered_reply_and_its_turn_stand_when_a_capture_lifts_both_at_once",
}
# Misreads fixed in part (issue 21, docs/recognizer-hypotheses.md "Session 36"): story 6's hands,
# the captured master set down for 0.5 s on a square its own turn could have reached, read as
# that turn amended, then read back when the capture lands (it stood wrong before: aside-empty
# 25). Since session 39 the story's own hands, whose turn stood 2.4 s before the lift, are read
# without the amendment (``set_aside``); here the lift comes 0.9 s after the turn's rest, less
# than a piece may be aside, so the amendment is read at once and read back.
READ_BACK = {"captured_pawn_set_aside_read_as_amendment_then_back"}
# Fast replies (issue 21, "Session 37"): Blue's Spider e5d4 c3c2 lands its Spirit on c2, Red lifts
# it 0.16 s later and plays Goose c2b2, which reads as Spider's Spirit set down on its way to b2;
# Blue's Crab b2b1 (a swap) then goes on only from Spider c3c2 and Goose (snatch 12, first turns).
# Red's Spider b3c4 c3c4 begins 0.1 s after Blue's Bat a3a2 d4c3 lands, by lifting the pawn it
# captures (not one Bat moved): Bat ends at Red's next lift, of its own b3 (hurried 6, cut).
# Blue's Panda b4b3 lands; 0.14 s later Red lifts Blue's master off c5, which Panda's mover
# could not have moved onto, and lifts its Kirin only 0.57 s after: Panda ends at the lift of
# c5, not 0.8 s after its rest (hurried 5, session 39, cut from the position after Mouse e4d3).
# But Blue's Lion b3a2 b2b1 (a capture) taken back Spirit first, the Spirit set down on b2 (as
# Red's Horse b1b2), then Blue's pawn lifted off a2: a student of Blue's own, which Blue's Spirit
# could swap with, is no capture begun, and ended Horse before rest (late-answer 26, cut; it
# failed on the first version of that change, a073f62).
# Red's Eagle c1b2 c2a4, then Blue's Steer a4b4, its Spirit set down 45 ms on c3 on the way: two
# readings (Steer, or Nessie a4c3 and Dog c3b4) until Red lifts b2 0.17 s after; a lift that
# ends each reading's last turn publishes the turn both share, Eagle, 0.25 s after Steer's rest,
# not 0.8 s (hurried 20, session 39, cut from the position after Sea-Snake a5a4).
# Blue's Horse c3c2, then Red's Frog c2d1 (a Spirit swap with Red's student on d1) 0.18 s after:
# at the rest Horse is published and Frog or Monkey asked, both counted as shown at the mat's
# last change, so once the answer (Frog) made Horse stand, Frog's own lifts were cut; Blue's
# Kirin d1d3 lifts d1 again, 3 s later, and Red's Horse d3d4 lifts the Spirit 0.05 s after it
# landed. d1 counted as emptied once, Kirin was never grown and the mat stayed out of step (snatch
# 32, session 40, cut from its start after Horse d3d4).
# Red's Bear d2d3, Blue's Giraffe d3d4 and Red's Sable d4c3 move the Spirit on, each lifting it
# 0.05-0.2 s after it landed: at the rest the chain is found beside one hand's Spirit move d2c3
# (Otter or Bear, asked), which ``seen_at_rest`` keeps. Blue's Bear a4b3 (legal only after the
# chain) lands, and Red lifts the pawn it placed 0.13 s later (Otter c2b3, a capture begun): the
# chain and Bear, the one history then, were not grown on from, and the mat wedged at Kirin
# a5b3. A lift of a pawn the turn placed keeps that history growing, as a Spirit's lift does
# (snatch 30, session 40, cut from its start after Kirin a5b3).
# Since session 49's glimpses (``glimpses.glimpsed``), a history whose boards the mat did not rest
# on because the next player's Spirit step carried the Spirit on at once is not put after the
# one-turn reading: chain_read_as_one... asks Otter, Bear or Sable (the chain's own last card),
# spirit_snatched... asks whose step at the rest (Spider, or Red's Goose) and reads Spider
# e5d4 c3c2 and Goose c2b2 at the answer instead of Spider c3b2 amended 3.4 s later, and
# fast_round_trip... asks whose step at Frog's landing (Frog, or Blue's Sea-Snake) and reads
# Frog c1a1 and Sea-Snake a1b2 at the answer, not Frog c1b2 amended 6.7 s later.
FAST_REPLIES = {"spirit_swap_published_at_a_question_is_lifted_again_by_the_next_turn",
                "chain_read_as_one_spirit_move_goes_on_from_a_capture_begun",
                "spirit_snatched_read_as_set_down_then_amended",
                "capture_begun_on_the_captured_piece_before_the_turn_is_read",
                "capture_begun_on_the_captured_master_ends_the_turn",
                "wind_card_taken_back_spirit_first_lifts_its_own_student",
                "spirit_read_two_ways_publishes_the_turn_both_readings_share"}
# Air-touch 8 (session 37): Blue holds its pawn off b3 while Red lifts and re-seats its pawn on
# d4, which Blue's pawn could capture: that is read as the capture, and when Blue's pawn lands
# on a2 the map still holding it must be there to read Monkey b3a2 at once (it was read 1.2 s
# late, after a mismatch, from the board).
HELD = {"held_pawn_lands_after_a_capturable_piece_is_reseated"}
# Spirit-back 36 (session 37): Blue's Eel c3b3, Red's Sheep b3c3 straight back (move or
# takeback, never answered), then Blue's Octopus a5b4 c3c2: the lift of the Spirit after its
# pawn step was read as Red's fast play after Blue's Eel amended into Eel a5b4, and that was
# committed before the mat rested. Blue's card half made after the unanswered reply now keeps
# the Spirit's square Blue's (the readings are asked about instead).
MIDWAY = {"spirit_back_unanswered_then_a_wind_card_lifts_the_spirit"}
# Story 9's reading with its deadline (session 37): Red's Hawk b1a2, its Spirit lifted off a3 on
# its way to swap with Blue's student on c3 and set down on b4, where the hands leave it. A Spirit
# set down off its square is read as still in the hand (the card part-way) only for the 1.2 s a
# piece set down may be aside; then the mat is read as it stands (Elephant b1a2, Panda a3b4),
# not left "waiting for the rest of the turn" (a Wind game of tests/table/test_computer.py).
ON_ITS_WAY = {"spirit_set_down_on_its_way_to_a_swap_is_read_as_it_stands_after_its_window"}
# Cause 10 (session 37, no-answer 22 cut): Red's Wind card Spider c3d4 d2d1 taken back Spirit
# first, the mat resting between the two halves (the Spirit back on d2, the pawn still on d4).
# That mat is also Blue's Giraffe d1d2, the Spirit moved straight back: it was committed and
# Spider stood with it, so the pawn's return wedged the mat. Giraffe is still committed at that
# rest, but Spider stays open, and the pawn's return takes both back.
TAKEN_BACK = {"wind_card_taken_back_spirit_first_rests_between_halves"}
# Questions left open (session 38, no-answer 20 cut from Tanuki c5c4): Blue's Centipede c3c2,
# named by Blue's answer, taken back (Red's answer) and made again with Crab: a card named for
# a turn ruled out amending it into another card's, and a turn taken back and made again is the
# same node of the tree, so the question was dropped and Crab never read. What was said of a
# turn the open question offers to take back goes with it. Takeback-wind 36 cut from Red's Lion
# e3d2 c4c3 (a Wind card) taken back: the history of the takeback paid idle noise for the pieces
# that rested where Lion put them, so the mat was read as the takeback, Okija c4c3 and Ox c3c4
# (main), then a mismatch when Okija d3b1 was played. A history that takes published turns
# back pays no idle noise. The same trace, on (session 39): Okija d3b1, made after that takeback,
# is taken back too, and the mat was read again as Okija c4c3 and Ox c3c4 over the Lion's own
# lifts: asked, and Lion e5d4 c4c2 committed only when the next turn settled it (3.8 s late).
# The turns from the anchor step after the mat rested on it once a turn from it is taken back.
# Takeback 122 at 200 games (session 40, cut from Red's Turtle b3c2): Turtle named by Red's
# answer, then Blue answers the takeback of Turtle b3c2 (or Viper c2b3 back): the card named
# went with the turn taken back, so Cobra b3c2 with Viper c2b3 came back and the same question
# was asked again; Red's Turtle c4d3, made in its place, was never read (main: 16 s late at 200
# games). A takeback answer rules out the reply after the same squares played with any card.
# No-answer 3 (session 44, cut from Blue's Cat a3b3): Blue answers "Cat" after Red's Cricket
# b2d2 is made, and Red answers "Cricket" after Blue's Serow d5d4 has begun; Blue's "Serow or
# Centipede?" is left open. Red's Whale d2b2 fills b2 again and Red's Cat b2d2, two turns on,
# lifts it. The lifts kept start at Cat's answer, after Cricket's own lift of b2, so b2 counted
# as emptied once, Cat b2d2 was never grown and the mat wedged (Blue's late "Serow" then
# published three turns, not four). Each history that goes on from the open moves and whose own
# later turns filled b2 again counts every lift of b2 since they were shown as one more (not a
# reply that moves the turn before it back: a takeback's hands do the same, and
# named_card_goes_with_its_turn_taken_back would grow Centipede c3c2, Tanuki c2c3, Crab c3c2).
LEFT_OPEN = {"named_card_goes_with_its_turn_taken_back",
             "wind_card_taken_back_pays_no_idle_noise",
             "takeback_answered_after_its_card_was_named_is_not_asked_again",
             "square_emptied_by_a_turn_answered_late_is_filled_and_lifted_again_under_an_open_question"}

# Knock 12 (session 38): Red's Rhinoceros b2a3 d4d5, read at the rest between its steps as
# Eagle b2a3 (no Spirit step); the hand that then lifts the Spirit off d4 knocks Blue's pawn off
# e4 40 ms later. That knock was taken for Blue starting, which closed Red's amend window, and
# the Spirit's step was committed as Blue's Whale d4d5. A lift at once with another piece's is
# that hand's: the amendment stays open, and which card is asked.
AT_ONCE = {"spirit_step_knocking_the_next_players_pawn_leaves_the_amendment_open"}

# Robot 1 (session 38): after Blue's Hawk d5e4 e5c4 (asked Lion or Hawk, answered Hawk), Red's
# Otter c4e4 swaps the Spirit with Blue's student on e4, both set down in one scan: the mat is as
# it stood. "No turn" (both put back) explains it too, and no question can name it: Otter was
# left waiting for the next hands (5 s). It is read at the rest.
IN_PLACE = {"robot_spirit_swap_leaving_the_mat_as_it_stood"}

# Air-touch 31 (session 38): Red holds its pawn off c2 while Blue lifts its master off b3 and
# re-seats it, which on the mat is Monkey c2b3 capturing the master: a win, published. Red's pawn
# then lands on d2 (Ox c2d2): a winning turn stays open while its mover's hands go on, so the
# win is amended away like any turn (it stood, and the pawn's landing went unread).
WON_AMENDED = {"winning_turn_amended_by_the_hands_that_made_it",
               # Air-touch 1 (session 39): Red holds its pawn off c3 while Blue re-seats its
               # master on b4 (Phoenix c3b4, the win); Red's hand then lifts Blue's c4 for 0.21 s
               # and lands the pawn there (Sea-Snake c3c4). That lift is the winner's capture,
               # not the loser starting: the win stays open, and the mat shows both captures,
               # each with a piece put back, so which card is asked (Red answers Sea Snake).
               "winning_capture_amended_by_the_held_piece_taking_another_is_asked"}

# Set-down 18 (session 39): Blue's Monkey d4e5, the Spirit set down on e3 for 0.339 s on its way,
# 0.350 s after the debounce (its lift bounced for 10 ms): the lift reached the recognizer in
# the scan its settle time ended, and Monkey d4e3 was committed there, before rest. A change in
# the scan that ends the settle time ends the stillness first.
SETTLE_TIE = {"spirit_set_down_until_the_scan_that_ends_the_settle_time_is_not_at_rest"}

# Takeback 134 at 200 games (session 40, cut from Blue's Kumo d3c2): Red's Sheep b2b1 taken back,
# then Red's Spider b2b1 e5e4 (a Wind card), its Spirit lifted 0.09 s after the pawn landed. The
# mat had rested on Sheep's board before the takeback, and the rests counted from the first on
# the anchor's board (before Sheep), so Sheep b2b1 with Blue's Cat e5e4 was read as seen at rest
# too: asked, and Spider committed only with Blue's next turn (1.9 s late; takeback-wind 154
# the same, 6.2 s). The rests count from when the mat showed the game as last published.
AFTER_TAKEBACK = {"wind_card_after_a_takeback_is_not_two_turns_over_a_rest_before_it"}

# Set-down 34 (session 40): Blue's pawn set down on b4 for 0.7 s (read as Eagle c5b4 -), then
# on d4, its Octopus card's Spirit lifted off d2 33 ms later and set on e3. That is the turn
# amended, not Eagle c5d4 - and Red's Rabbit d2e3, whose first turn the mat never rested on
# (asked, and read 1.6 s late): the turns a history puts in place of published ones must end
# where the mat rested too, as the turns after them must.
REPLACED = {"pawn_set_down_on_its_way_then_a_wind_card_is_one_amended_turn"}
# Knock 18 (session 40): Red's Rhinoceros c2b3 b2d2, the Spirit knocked off b2 as the hand lifts
# c2 and put back there for 2 s: read as the swap Rhinoceros c2b3 b2b3, then the Spirit goes on
# to d2. The map with the Spirit put back (Sheep c2b3's, one put-back more) was dropped once the
# mat had rested on the swap, so no map had the Spirit on d2 and nothing was read (the game's
# next turns stood 30-67 s late). Kept, it gives the question the hands expect, and the answer.
# Session 52: the Spirit came off b2 24 ms after c2, a knock, and its put-back is no noise: at
# b3's rest Sheep c2b3 (the knock) and the swap tie, and the table asks Sheep or Rhinoceros in
# place of publishing the swap (the answer's question and reading as before).
SWAP_OR_PUT_BACK = {"spirit_put_back_on_its_square_after_a_swap_then_moved_on_is_asked"}
# Its first fix (PieceMaps.keep keeping the relabelled maps, s40-21n f1e4cbb) was taken back:
# at 200 knock games it raised wrong commits 22 (9 games) -> 26 (15) and wedged games 9 -> 14.
# Session 50: the prune keeps only the maps on the Wind card's part-way board (its pawn step
# made, the Spirit where it stood) at one put-back more (``on_its_way.part_way``).
# Knock 19 (session 40): Blue's Tiger c5c3 published, then Red's hand lifting c2 knocks Blue's
# master off c3 and puts it back 1.5 s later as the pawn takes d1: Frog c2d1, Bear c2d1, or Bear
# c2c3 taking the master with d1 lifted and put back. Counted from the anchor, c3 was a turn's
# square (Tiger's), so the knock was no put-back and the answer "Bear" left two readings: the
# turn stood only at the next one (5.9 s). The knock's squares are those after the published turns.
KNOCK_AFTER_PUBLISHED = {"knocked_piece_on_the_last_turns_square_is_a_knock_not_a_capture"}
# Onlooker 24 (session 40): Blue's Octopus c3d2 d3c4, its master held off c3 (set down on c1 for
# 0.1 s) while Red's pawn still stood on d2, then the capture and the Spirit step in one breath.
# By occupancy the mat rested on Lobster c3d2 made (c3 empty, d2 full) with the master in the
# hand, so Lobster c3d2 and Red's Kumo d3c4 were asked beside Octopus (read 3.0 s late). A turn
# ends where the mat rested with its pieces as the turn puts them, not only its squares filled.
LAID = {"capturing_piece_in_the_hand_is_no_rest_on_the_capture_made"}
# Takeback-wind 150 at 200 games (session 41, cut from Red's Hawk c2b1 a2c3): Red takes the
# Wind card back, its Spirit lifted off c3 on the way back to a2 after the pawn is home. The mat
# then read as Hawk amended (the Spirit put on c2) with Blue's lift of the Spirit ending it, and
# the amendment was published at that lift, 1.4 s before the takeback came to rest. The Spirit
# is nobody's piece: lifted from where the published turns left it, while a history replaces
# them, it is no proof the next player started (session 42, ``proving.proves_start``).
AT_WORK = {"wind_card_taken_back_spirit_lifted_from_its_square_is_no_reply"}
# Fast 74 at 200 games (session 42, cut from Blue's Octopus c5d4 b3c4): Red's Mouse moves the
# Spirit straight back and Blue's Serow d4c4 lands 0.32 s later, no rest between. At Red's lift
# the mat is also Octopus amended to Serow c5c4, as cheap; the rests preferred it (one hand
# going on), it was published at that lift and Red's Octopus c2d1 b3b2 was a mismatch. Both
# end at the next player's start: the one that keeps what was published is read there.
KEPT_AT_LIFT = {"amended_at_a_lift_or_a_reply_made_without_rest"}
# Aside-empty 42 at 200 games (session 42, cut from Blue's Hawk c4d3 b4d4): Red captures the
# student Hawk's Spirit swapped onto b4 and sets it down on d5 for a moment. With both of Hawk's
# steps read otherwise (Hawk c4d5 b4d3) the mat is one piece moved on, b4 -> d5, after it stood
# 2.8 s: story 6's wait applies (set_aside._one_moved); on main the amendment was published at
# once and the game wedged.
ONE_MOVED = {"captured_student_set_down_while_both_wind_steps_read_otherwise"}
# Takeback-wind 74 at 200 games (session 42, cut from Blue's Octopus a4b3 d3e4, three Wind card
# turns taken back, then Bat e3e4 d3c2): at the rest with Bat's Spirit in the hand, no history
# left the mat, and the board of [Bat e3e4 d3b2, Eagle d3e4 -] was read from it (wrong from
# there, wedged). Bat half made with its Spirit lifted is a way the hands went: held, waiting.
SPIRIT_HELD = {"wind_card_spirit_in_the_hand_before_a_board_no_way_leads_to"}
# Set-down 98 (session 41): Red's Rhinoceros e1d2 b2b3 published and rested on 2 s, then Blue's
# hand carries the Spirit off b3 (Butterfly b3b4) and sets it down on c3 for 0.6 s on its way:
# read as Red amending to Rhinoceros e1d2 b2c3 (the Spirit is no piece of Blue's own, so the
# amend window was open), and Blue's turn then wedged. A Spirit moved on long after it stood,
# as a pawn moved on where the next player captures, waits until it has stood ``ASIDE_S``.
# Set-down 174: Blue's Rhinoceros c4d3 b4d4, its Spirit set down on c4 (where its pawn stood)
# for 0.44 s: by occupancy Red's Eagle a2b3 d2b4 amended to Lion a2b3 d2d3 with Blue's pawn still
# on c4. While that amendment waits, the Spirit's lift off c4 is no lift of Blue's own pawn
# ending it (fast play): it was published before the mat rested.
SPIRIT_MOVED_ON = {"spirit_set_down_on_its_way_by_the_next_player_is_no_amendment",
                   "spirit_set_down_on_its_way_then_lifted_is_no_end_of_an_amendment"}
# No-answer 6 (session 41, cut from Red's Octopus d2c3 c2d1): Red answers "Octopus, turn 1" of
# that turn, which the mat read without asking, and takes it back; Rhinoceros e2d3 c2c3, played
# in its place, is asked "Rhinoceros or Octopus?", and the kept answer picked Octopus (then the
# game wedged). What was said of a turn taken back goes with it (``Heard.taken_back``).
# No-answer 176 (session 49, cut from Red's Hawk c1b2 e1c1, asked "Hawk or Rhinoceros?" and
# answered "Hawk"): Red's hands take it back (the mat rests on the anchor's board, no takeback
# asked) and make Rhinoceros e3d4 in its place. The card named still kept only Hawk turns from
# the anchor, and Hawk e3d4 was published with no question. A named card names the turn it
# answered: once the mat rests again on the board before that turn, it no longer applies
# (``taken_back.still_named``), and Red is asked again.
# No-answer 84 (session 49, the game's first seven turns): Blue's Iguana e3e2 (the Spirit) is
# taken back, asked "Sea Snake or takeback?", and Red answers "takeback" only after Sheep c5d4,
# Cricket e3c3 and Iguana c3b4 were made. The takeback is published as of its rest and the hands
# since are read from the anchor, whose tree grows two turns deep: the three turns were never
# read again and the game wedged. The histories the answer keeps grow on (as a standing
# question's do), and Sheep c5d4 and Cricket e3c3 are published with the takeback.
# No-answer 40 (session 49, cut from Blue's Viper e3d4, asked "Viper or Turtle?"): Red's Serow,
# then Blue's Bat d4d3 c3e2 rests on its pawn step, which with Viper in Blue's hand (Turtle
# played) is Viper d4d3, whole: the part-way reading was dropped for it, and Turtle e3d4 was
# published with no answer (Blue's "Viper" came later). A whole reading with another card at a
# turn still asked about settles nothing over a part-way one (``on_its_way.whole_first``).
# Since session 52 the whole reading is published at the rest (the mat rests on a turn whole:
# spirit-back 161, below) but the turns from the one asked stay open (``on_its_way.held_open``):
# the Spirit step reads both histories again and Blue is asked again; Blue's "Viper" amends back
# (``on_its_way.amends_back``): Turtle e3d4, Serow b1b2, Viper d4d3 taken back, Viper e3d4 and
# Serow b1b2 published (main 1a3e9d8 kept Turtle e3d4 and amended Viper d4d3 to Bat: wrong).
# Spirit-back 185 (session 51, cut from Red's Phoenix b4a5, asked "Eagle or Phoenix?"): Blue's
# Phoenix a2b1 rests where Eagle a2b1, Blue's Wind card part-way, would (Eagle played at b4a5):
# the whole reading makes it with its own card passed back, not the part-way one's card asked
# about, and settles it: the four turns are published at its rest, not at the next turn's.
# Late-answer 102 (session 51, cut from Blue's Hornet d4d3): "Spider or Lion?" for Red's a1b2
# d3d4; Red's Lion c1d2 (no Spirit step) rests where Spider c1d2, part-way, would: both kept.
# Red's "Spider" then published the histories of the rest before Lion c1d2, which was never
# read (wedged); the histories a rest kept whole are the ones the answer chooses from. (Since
# session 52 the whole reading is published at that rest, as main did before session 51.)
# Spirit-back 161 (session 52, cut from Red's Steer b2c1, asked "Crane or Steer?"): Red's Crane
# a2a3 rests where Bat a2a3 e3c4, part-way, would (Crane played at b2c1): no-answer 40's mat, but
# the truth is the whole reading, and its turn is timed. Kept part-way beside it, it waited for
# the next player's turn (11 s late); it is published at its rest, the turns from b2c1 held open
# for the Spirit step, and closed by Blue's Steer e3d3.
ANSWERS = {"answer_said_of_a_turn_then_taken_back_is_forgotten",
           "wind_card_pawn_step_read_whole_with_a_card_not_asked_settles_no_question",
           "wind_card_pawn_step_read_whole_with_the_whole_readings_own_card_settles_the_question",
           "answer_to_a_question_left_open_over_a_wind_card_part_way_publishes_the_whole_reading",
           "whole_reading_published_at_its_rest_over_a_wind_card_part_way_the_spirit_step_may_amend",
           "named_card_goes_once_the_hands_take_its_turn_back",
           "late_takeback_answer_keeps_the_turns_made_since_deeper_than_the_tree"}
# No-answer 24 (session 41, cut from Red's Sheep e4d5): Blue's "Frog, turn 2" is said of Frog
# d5e4; asked "Frog or Sheep?" after Eel e4d5 and Sheep c4d3, whose Frog takes Frog d5e4 back
# for Frog c4d3, it picks that Frog, though the Sheep option's histories play Frog on turn 2 too:
# an answer true of two options tells neither apart (``Heard._plays``). Session 55: the question
# keeps the takeback past Red's start (``undoing.asked_instead``), so the three turns wait; cut
# on to Red's "Eel, turn 2" (27.3 s), which reads them with Eel d4e3.
BOTH_TRUE = {"answer_true_of_both_readings_tells_none_apart"}
# Nudge 45 at 200 games (session 41, cut from Red's Elephant c1d2, a capture asked and
# answered): Blue's hand nudges its pawn off e4 and back; one map reads the blue pawn Elephant
# took off d2 as the one set back on e4, e4's own still in the air. Brushed off e4 again, the
# square gets back the piece it lost last, but of two alike pieces from one square only the
# first (the earlier) was offered, which a brush cannot give back: the only map with Red's pawn
# on d2 was lost, and Blue's Cat d5e5 went unread (2.457 s late, at Red's next lift).
BRUSHED_TWICE = {"captured_pawn_on_a_nudged_square_then_the_nudge_brushed_again"}
# Spirit-back 55 (session 41, cut from its start): Blue's Dog c3d3, Red's Rat d3c3 straight back
# (asked: Rat, or take back Dog), Blue's Turtle c3d4, then Red's "Rat, turn 2" as Turtle lands.
# The answer named Rat for the last turn of the histories it kept (Turtle's), not the turn it was
# asked for: once Rat stood, Turtle read as played with Rat ruled it out, and Red's Panda d4c3
# (the Spirit straight back again) was committed as Turtle taken back, never asked.
NAMED_TURN = {"spirit_back_answered_after_the_next_turn_names_the_turn_it_was_asked_for"}
# The card an answer names is the one of the turn its option asked about (``named_turns``).
# Spirit-back 21 (session 42, cut from its start): Red's Sheep d2d1 moves the Spirit, then Blue's
# Dragon d1c2 and Red's Cobra c2d1 move it away and back. Red's "Dragon, turn 10" to "Sheep,
# Dragon or Cobra?" kept two histories, one stopping at Sheep d2d1 and one going on with the round
# trip, which no question told apart: Sheep d2d1 was published, and the round trip read only as the
# hands went on (6.4 s late). Now Sheep d2d1 is published, Red is asked "Cobra, or take back
# Dragon d1c2?" (as the round trip's last mover saw it) and answers A.
# Spirit-back 14 (session 44, cut from its start): Blue's Whale d2d1 (asked "Bear or Whale?",
# left open), then Red's Eel d1c2 and Blue's Bear c2d1 move the Spirit away and back. The
# histories that stop at turn 18 and those going on with the round trip were asked as one "Bear,
# Whale or Dog?" by each history's last card, with no buttons: Blue's A (Bear, the round trip's
# last card) was lost, and the round trip read only as the hands went on (12.5 s late). Now
# Blue is asked "Bear or Dog, or take back Eel d1c2?" (the round trip as its last mover made it);
# Blue's late "Whale, turn 18" publishes Whale d2d1 (its answer), and A commits the round trip.
# (Its first round trip, Dog d2c2 and Goat c2d2, is not asked again at 28.105: the question open
# since 20.325 asks Red about Dog d2c2, and Red's "Dog, turn 5" commits both.)
# Snatch 164 (session 45, cut from its start): Hornet c3a1 and Frog a1c1, then Sea-Snake c1c2 and
# Panda c2c1 move the Spirit away and back by fast snatches, the mat never at rest between. The
# round trip is asked at the first rest (Frog a1c1 published then); Blue's Panda commits it, and
# the next turns are read from their lifts (Frog c1b2, amended at 28.875 as main reads it). With
# Frog a1c1 shown at that rest, the round trip's end, the answer cut the round trip's lifts and
# the mat wedged (mismatch at 28.875): the turns before a round trip are shown before its first
# lift. (Main asks "Frog, Panda or Hornet?" with one button, committing the round trip late.)
# Late-answer 142 (session 45, cut from turn 17, numbered from there): "Octopus, or Red's
# Sheep?" stays open when Blue's Tiger b2b3 moves the Spirit back (it asks about the round trip's
# first turn), so Red's late "Sheep, turn 2" commits Sheep b3b2 and Tiger b2b3. Replaced by the
# round-trip question, the answer was lost (offered after two turn-1s, ``heard``), and Red's
# pawn step of Octopus e1d2 b3a2 was committed before rest as Sheep e1d2 (main reads it too).
ROUND_TRIP = {"spirit_round_trip_after_an_answered_turn_is_asked_not_read_as_nothing",
              "spirit_round_trip_is_asked_as_a_move_or_its_first_turn_taken_back",
              "fast_round_trip_answered_then_the_next_turns_are_read",
              "late_answer_to_a_question_replaced_by_a_round_trip_is_not_lost",
              # Spirit-back 77 (session 46, cut from Red's Lobster a2b3): Blue's Viper b3d3
              # lifts b3 before Red answers "Lobster"; Lobster a2b3 was dated at the mat's last
              # change (after that lift), so Sable d3b3's round trip back was never found.
              "spirit_round_trip_after_a_published_turn_is_found_when_its_first_lift_came_before_the_answer"}
# Knock 171 (session 42, cut from Red's Fox e2d1): Red's hand lifts its pawn off e2 and knocks
# Blue's e1 16 ms later; e1 is put back 1.4 s later, the pawn still in the hand, read at that
# rest as Rat e2e1 taking e1. The pawn then takes d1: the lift of d1 is the mover's capture,
# not Blue starting (a capture whose piece came off with the mover's own lift may be a knock
# put back: ``starting._knocked_off``), so the amendment to Fox e2d1 is read.
KNOCKED_OFF = {"knocked_neighbour_put_back_then_the_pawn_takes_elsewhere_amends_the_capture"}
# Onlooker 29 (session 44, cut from Blue's Tanuki b4b3): Blue's pawn lifted off b4; an
# onlooker's brush of Red's master on c3 (154 ms) reads as the pawn taking it (a win); the pawn,
# still in the hand, is set down on a4 for 90 ms and lands on b3 4 s later. The map in which
# the pawn is still held is kept (``pieces.holding``: its trail went by b4, wherever it was set
# down since), so the amendment is read at b3's rest, not once b3 stops being "the captured
# master set aside" 1.2 s later.
HOVERED = {"held_pawn_hovering_while_a_brush_reads_as_its_capture_amends_at_rest"}
# Robot 81 (session 44, re-made in session 45; cut from Blue's Rhinoceros b5c4 c3b2): Red's
# Spider c3d4 b2c3 made by the robot's hands: the pawn set on d4, the Spirit lifted off b2, set
# down on b2 again for 0.13 s (a rest), then on c3. Put back on b2 it paid ``PUT_BACK``, and the
# map in which the Spirit went to d4 and Red's pawn c3 -> b2 -> c3 paid nothing (Blue's turn
# amended, Red's half made), until Blue's next lift. A piece put back and lifted again was only
# set down on its way: its ``PUT_BACK`` is refunded (``PieceMap.back``), when no other live piece
# in the hand could have landed there (a swap, or two pieces each put back: snatch 4).
SET_DOWN_ON_ITS_SQUARE = {"robot_spirit_set_down_on_its_own_square_on_its_way_is_no_put_back"}
# Hurried 6 (session 45, cut from Red's Bat b4b3 d5c4; read on main, not with the first refund):
# Blue's pawn on c4 and the Spirit on e3 swapped by Red's Bat, Blue starting 0.1 s after. A map
# reading two of Blue's pawns lifted (c4's and one labelled on e3) put c4's back while the
# other could land there just as well: refunded when lifted again, that mislabelled map lived
# on at no noise, and Red's later Spirit swap e4d4 (Octopus b3a4 e4d4, read first as Eagle
# b3a4) read as nothing moved. A put-back is refunded only if no other live piece in the hand
# could have landed there.
NOT_ALONE = {"pawn_put_back_while_a_like_pawn_lifted_with_it_could_land_there_stays_paid"}
# Knock 105 and 132 at 200 games (session 45, each cut from its turn): what a lift proves is
# one check, for the amend window and for a turn published at a lift (``proving.proves_start``).
# Blue's Cat d3b3: the hand knocks Red's e3 as it lifts d3 and puts it back 0.35 s later,
# which reads as Cat d3e3 taking it; the hand then lifts its victim off b3, where the Cat could
# have gone instead: no proof that Red started (the Cat may be in the hand), so Cat d3e3 was
# published before the mat rested. Blue's Octopus c4d3 c3c4: the Spirit set back on c3 for
# 0.1 s reads as the Spirit's swap with the pawn (c3d3, which the mat cannot see); the hand lifts
# it again and knocks Red's c2 70 ms later: a lift at once after the mover's own is that hand's,
# not Red starting, and Octopus c4d3 c3d3 was published before the rest. Knock 108 (session 46):
# the knocked d4 came off 90 ms after the mover's lift of d3 (as debounced), over one ``clear``;
# Rat d3d4 was published at the lift of d4 and amended after. A knock is looked for over
# ``proving.KNOCK_SPAN`` clears.
PROVES = {"knocked_neighbour_back_reads_as_a_capture_then_the_movers_lift_of_its_victim_is_no_reply",
          "spirit_lifted_again_and_a_knock_at_once_are_the_movers_hand_not_a_reply",
          "knock_ninety_ms_after_the_movers_lift_read_as_a_capture_then_its_victims_lift_is_no_reply"}
# Set-down 44 (session 46, cut from Red's Scorpion c1d2 c2d4): the Spirit, lifted off c2, touches
# e3 for 66 ms and rests on d3 for 0.7 s before d4. At d3's rest the only whole reading is Scorpion
# c1d2 c2e3 and Blue's Sheep e3d3, published together; the Scorpion then stood, and d4 wedged the
# mat. Two turns published together at a rest, the first on a board the mat never rested on, stay
# open (``Record.pair``): d4 amends both (Sheep e3d3 taken back, Scorpion c1d2 c2d4).
# Set-down 40 (session 54, cut from Red's Lion b2c3 e2e4): the pawn step, rested on, is read as
# Lobster b2c3 (the judge commits it at its rest); the Spirit, set down on d3 for 0.6 s on its way,
# is read there as Blue's Steer e2d3. A Spirit-only reply after a regular card's pawn step that a
# Wind Spirit card of its mover also begins stays open with it (``pairs.wind_went_on``): e4 amends
# both (Steer taken back, Lion b2c3 e2e4). On main the Lobster stood and e4 wedged the mat.
PAIR = {"spirit_set_down_for_a_moment_read_as_a_reply_published_with_its_turn_amends_both",
        "wind_cards_spirit_set_down_a_moment_after_its_pawn_step_read_as_a_reply_amends_both"}
# Fast 60 (session 48, cut from Blue's Tanuki d3b2): seven turns, each begun 0.1-0.2 s after the
# last landed, so the mat never rests. A red pawn landing where a red pawn was captured costs a
# put-back, so the map in which the Spirit, not that pawn, landed on d4 was the cheapest, and
# maps like it (the Spirit where no turn put it) were never charged: only a rest charges them.
# They crowded the hands' map out of the beam, and Bat c2c1 b2a3 wedged the mat. When the next
# player goes on at once from a turn the mat showed whole, the maps no history explains pay as
# at a rest on it (``PieceMaps.rested``, ``ended``).
FAST_MAPS = {"fast_reply_never_rested_on_keeps_the_map_the_hands_made"}
# Onlooker 94 (session 49, cut from Red's Lobster c1b2): during Blue's Spider b3a2 a1a2 an
# onlooker lifts Red's pawn off d2 for 130 ms. "Blue's pawn landed on d2, Red's pawn in the hand"
# cost nothing (a piece of the other side landing where one was lifted is a capture's shape),
# the truth (Red's pawn put back) a put-back; and a map with a piece in the hand paid nothing at
# the rests either (a hand at work). Every map came to hold that relabelling, and Hawk b2a3 a2c2
# fitted none: the mat wedged at Eagle. A piece in the hand is a hand at work only while its
# square is empty (``pieces._at_work``).
AT_WORK_EMPTY = {"onlooker_brush_read_as_a_pawn_landing_keeps_no_piece_in_the_hand_through_the_rest"}
# Set-down 58 (session 49, its first two turns): Blue's Scorpion e5d4 c3d1 swaps the Spirit onto
# d1 and Red's student onto c3, published. Red lifts the student off c3 and sets it on a2 for
# 0.72 s, on its way to b4 (Rhinoceros c3b4 d1d2). At a2's rest the mat was read as the Scorpion
# amended to c3a2 (the swap's edges re-read: the Spirit put back on c3, d1 lifted and put back),
# which leaves Red's student on d1, where nobody lifted anything since the turn was shown; and
# Red's turn was then never read. That amendment waits as a piece set aside
# (``rereading.rereads``): Red's piece goes on, and Rhinoceros is read. Set-down 146 (its turns 3-4):
# Red's Lobster c2d3 is read amended from c2b3; Blue lifts c5, its own pawn, and makes its Wind
# card with two moments' set-downs (b5, b3); at a4's 0.6 s rest the mat was read as the Lobster
# amended back to c2b3 with Blue's Octopus c5d4 b3a4. The first lift since was Blue's: that
# reading waits too, and Rhinoceros c5d4 d3b3 is read where it lands.
# The table robot, base computer 151 (session 50, cut from its kept trace, Blue's answer the
# computer's card): Red's Eel b4a5 (captured pawn lifted with the captor) is read; Blue lifts
# c5, its own pawn, and puts it back (a hesitation). At that rest the mat was read as Red's turn
# amended to Cobra b4c5 (Red's pawn in the hand through the rest that published Eel, landing
# on c5; a5's pawn knocked and put back), and Blue's Goose c5d5 as the Eel amended back with
# a reply. The first lift since was Blue's, and the amendment captures that very piece while
# nobody lifted the pawn the Eel set down: that reading waits too, and Goose is read.
REREAD = {"swapped_student_set_down_for_a_moment_by_the_next_player_is_no_amendment",
          "next_players_wind_card_set_down_after_their_own_lift_is_no_amendment_back",
          "next_players_hesitation_on_a_piece_the_last_turn_could_have_captured_is_no_amendment"}
# Onlooker 68 (session 50, cut from Blue's Rhinoceros e2e3 d5d4): while Blue's hand holds the red
# pawn it captured on e3, an onlooker lifts Red's pawn off a5 for 110 ms. "The captured pawn set
# down on a5, Red's own in the hand" cost a put-back (alike pieces), as the truth did; the prune
# kept the first, and Red's Scorpion a5b4 d4b5 fitted no map (main: mismatch at Cat c5d5). A
# capture's victim in the hand does not land where another piece was lifted and is still in the
# hand (``victims.victim``: ``DEAD``).
# Onlooker 74 (cut from Blue's Rhinoceros e2e3 c3b2): brushes of e4, d2, d3 while the captured
# pawn (and Red's Spirit) are in the hand; the truth, two put-backs, fell out of the 32 cheapest
# (main: mismatch from Rhinoceros d5d4 b4a5). Onlooker 66 (cut from Red's Kirin c2b4), a guard of
# the same change: Red captures on b4, Blue's Viper b5b4 captures back. Blue's pawn landing where
# a blue pawn was captured the turn before cost a put-back ("alike"), as the captured one put back
# did; with the victim's landings charged, that tie let the maps of Blue's pawn held in the hand
# crowd the beam, and Spider a1b2 e3d4 was read 14 s late. A piece is alike only to the one its
# square lost last (``PieceMap.placed``): read at its rest (as main reads it).
# No-answer 97 (session 51, cut from Red's Boar a4b4): Boar takes a blue pawn off b4, Blue's
# Phoenix a5b4 takes Red's pawn back there (asked, never answered), Red's Crab a3c3, and Blue's
# Frog b4a5 moves that pawn back to a5. Two blue pawns lifted off b4 were in the hand; the first
# of two alike pieces lifted off one square landed (one choice), Boar's victim, whose trail never
# stood on a5 before b4: no history walked it, and the three turns waited for the next rest (4.6 s
# late). The first was captured there (a red piece stood on b4 between), so the second lands.
VICTIM = {"onlooker_brush_while_a_captured_pawn_is_in_the_hand_is_a_put_back_not_the_capture_landed",
          "onlooker_brushes_while_the_spirit_and_a_captured_pawn_are_in_the_hand_are_put_backs",
          "capture_where_a_like_pawn_was_captured_the_turn_before_is_no_put_back",
          "pawn_recaptured_on_its_square_then_moved_on_is_the_recapturer_not_the_pawn_first_captured_there"}
# Knock 150, 95 and 78 (session 51, each cut from its game). Knock 150: Red's hand lifting d4
# knocks Blue's c5 21 ms later and puts it back 2.2 s later (Rat d4e3 taking e3), which is also
# Phoenix d4c5 taking c5 with e3 lifted and put back. A knock comes at once with the lift
# (``knocks.knocked``), but the put-backs were counted over every lift since the anchor: the
# neighbour Blue's published Mouse b3c4 had knocked and put back (a knock of Mouse's lift, not
# of a lift of Rat's squares) made Rat no knock, and the table asked. The lifts counted are
# those after the mat showed the published turns a reading keeps. Knock 95: Blue's b3 knocked
# 95 ms after the lift of b4 (as debounced), over one ``clear``: a knock is looked for over
# ``proving.KNOCK_SPAN`` clears, as a lift's proof does. Knock 78: Blue's Hornet d3d2 captures
# on d2 while the hand knocks Red's e3 and puts it back; that is also the captured pawn set on
# e3 and e3's own in the hand, at the same noise. The prune kept one map per history (the
# second), and Red's Centipede e3d3 then fitted no map until the next turn's rest: it keeps
# every map the cheapest histories explain as cheaply (``relabelled.least_maps``).
KNOCKS = {"knock_after_the_published_turns_own_knock_is_read_as_a_knock_not_asked",
          "knock_ninety_five_ms_after_the_movers_lift_is_read_as_a_knock_not_asked",
          "knocked_pawn_put_back_beside_a_capture_keeps_both_labellings_through_the_prune"}

# Snatch 36 (session 49, cut from Blue's Spider e5d4 c3b2): Spider, Red's Centipede b2a2 and
# Blue's Sasori a2c2, each Spirit stop 0.16-0.22 s (the next player lifted it at once), leave
# the edges of Spider e5d4 c3c2 with the Spirit set down a moment on b2 and a2. The three turns
# were put after the one (the mat never rested on their boards) and lost: Spider c3c2 was read
# silently, and the mat wedged. A board not rested on because the next player's Spirit step
# carried the Spirit on at once (a glimpse) keeps its history: the table asks (Spider or
# Sasori?), and the next hands settle it (Blue's Centipede a3a2: only the three turns left
# Blue that card).
# No-answer 32 (session 51, cut from its start): Blue's Sasori c3e3 rests 1.4 s (asked, Sasori
# or Cricket?), then Red's Whale e3c3 lifts the Spirit and moves it back. The rests count from
# the Whale's return to the board as published, so Sasori's board was not among them, and
# the glimpse rule let it pass as a glimpse: Sasori and Whale were read, the takeback then
# asked beside Red's next card, and Cricket c3e3 read (wrong, wedged). A board the mat rested
# on is no glimpse: read as main reads it (nothing played, then Sasori at the next rest).
# Session 55: the game's start is a rest, so Sasori's board counts from it: the answers read
# Sasori and Whale, "Cricket, or take back Whale?" stays open over Red's Monkey and Blue's
# Octopus (cut on to Blue's late "take back", 22.1 s, which reads them).
# Spirit-back 130 (session 51, cut from its start): Red's Crane c3b2, the Spirit set down a
# moment on d2 (the twin: Crane c3d2 and Blue's Sasori or Rabbit d2b2, asked), rests 4.8 s on
# b2; Blue's Rabbit b2c3 moves it back. Crane c3d2 with Rabbit d2e3 and Frog e3c3 carrying
# the glimpse on through the rest on b2 was kept (a glimpse is carried on at once: no other
# whole board rested on between), and the twin question stood for the round trip (it asks of
# Crane's turn, which the histories that stop do not make, with no takeback): "Rabbit, or
# take back Crane?" was never shown, Blue's "Rabbit" was lost and the turns read 16.8 s late.
# Spirit-back 55 (session 51, cut from Panda b2a1, numbered from there): Turtle c3d2 (a
# moment on e3: the twin asked) rests, then Rat d2c3 moves the Spirit back. The rests counted
# from the first on the game as published after it was shown: the round trip's return, so
# Turtle's board no longer counted, and a board the mat rested on is no glimpse: only
# "nothing played" was left (the question cancelled). Published boards the mat had rested on
# before they were shown count the rests from when they were shown.
# Set-down 128 (session 53, cut from its start): Red's Mouse b4c4, its Spirit a moment on d4,
# then 0.47 s on c3 (Fox c3b4's board before: asked "Turtle, or take back Fox?"), then c4. The
# twin, Turtle b4d4, Phoenix d4c3, Mouse c3c4, is two turns longer but passes one board the mat
# did not rest on: one glimpse, not a chain. Held as a chain, "Turtle or Mouse?" stood
# unanswered, the anchor stayed at Fox, and Fox c1d2's pawn set down a moment on c2 was read as
# the twin's cousin Turtle b4d4, Phoenix d5c4, Mouse c1c2 (the board fit), three turns wrong.
# Mouse is published at its rest beside the twin's question; the set-down is a mismatch.
GLIMPSES = {"spirit_glimpses_read_as_one_turn_kept_asked_and_settled_by_the_next_hands",
            "glimpse_board_the_mat_rested_on_and_asked_about_is_no_glimpse",
            "twin_question_left_open_then_the_spirit_moved_back_asks_the_round_trip",
            "twin_asked_beside_the_turn_published_then_the_spirit_moved_back_asks_the_round_trip",
            "spirit_set_down_a_moment_on_its_way_published_at_its_rest_its_twin_only_asked",
            "twin_left_unanswered_is_not_carried_over_the_next_turns",
            "twin_longer_by_a_board_rested_on_is_one_glimpse_its_turn_published_at_its_rest"}

# Air-touch 80 (session 52, cut from Blue's Otter d4e3): Blue's hand holds its pawn off d4 while
# Red's e5 is lifted and re-seated (0.8 s), read as Sable d4e5 taking it; the pawn then takes e3
# (e3 lifted, the pawn set down 0.16 s later). That lift of Red's e3 was read as Red starting,
# which closed the amend window: Sable stood and Red's Bear c3d2 fitted no map. A lift of the
# next player's piece whose square is filled again within a capture's exchange (0.45 s) proves
# no start (``starting.touched``): Otter amends Sable (the cards differ: asked, and answered).
# (Only where the last turn's piece could have gone: onlooker 74's brush of d3 still proves.)
# Nudge 196 (session 53, 53-67.5 s): Red's Goat c3b3 takes b3; Blue nudges its d4 for 0.3 s (Goat
# c3d4 reaches it: the same card), then moves the Spirit, Tanuki e5e4. Withdrawing d4's proof left
# Goat c3d4 (b3 re-seated) beside c3b3 with no question to tell them apart, and no piece of
# Blue's lifted: the answers for Tanuki and Bear kept both, read 23 s late. The proof is withdrawn
# only where another card reaches the square (``starting.proof``): there the table can ask.
STARTED = {"air_touch_capture_landing_after_a_reseat_read_as_the_capture_is_the_turn_amended_not_the_next_player_starting",
           "nudge_touch_filled_again_after_a_capture_proves_a_start_when_only_the_same_card_reaches_it"}

# Set-down 50 (session 51, its turn 7): Red's Dragon b2d3 read, then amended to Scorpion b2c3
# e1c2 (the amendment dated back to d3's lift, ``explaining.amended_at``); the hand lifts the
# Spirit off c2 0.48 s after setting it there and puts it on d3. The piece moved on is dated from
# when it was set down on its square (``set_aside._set_down_at``), not from the turn's date: read
# at its rest, not 1.2 s later as the next player's hand lifting a capturable piece.
DATED = {"spirit_set_right_soon_after_an_amendment_dated_back_is_read_at_its_rest"}


# Set-down 66 (session 51, its first turn): Red's Centipede c3b3 moves the Spirit; the hand sets
# it on c4 for 0.64 s (the mat rests there: "Centipede or Okija?") and goes on to b3. At b3's rest
# the mat was also Red's c3c4 and Blue's Rooster c4b3, the Spirit being nobody's: a "whose step"
# question nobody answered, and the turn read 4 s late. A Spirit the mat rested on and that is
# lifted again less than a moment's set-down after it was set down (``moment.MOMENT_S``) is the
# hand that set it down going on (``moment.one_hand``); the two players' turns it was read as
# are asked about beside it ("Centipede, or Blue's Rooster?"), and nobody answers.
# Knock 86 (session 52, its turns 11-13): Blue's Octopus c4d3 c3b4 sets the Spirit on b4, Red's
# Tiger b4b3 lifts it 0.800 s after, under ``MOMENT_S`` by a rounding: read as one hand (Octopus
# amended to c3b3). The one-hand rule had thrown the two players' turns away (Octopus c3b3
# committed, the mat out of sync); session 52 kept them growing, read at Blue's Ox d3d4, 3.2 s
# late; now they are asked about beside the one hand ("Octopus, or Red's Tiger?"), and Red's
# answer "Tiger" (1.6 s after the rest) reads Octopus c3b4 and Tiger at once.
# Fast 64 (session 53, its turns 46-50): Red's Rhinoceros b4b3 c1a1 sets the Spirit on a1 and
# Blue's Octopus e3d4 a1b2 moves it on at once. Rhinoceros, Blue's Scorpion e3d4 and Red's
# Elephant a1b2 read the same hands keeping the turn that set it down: no one hand, and Octopus
# is read at its rest (the merge of session 52's one hand dropped it for them: 1.3 s late).
ONE_HAND = {"spirit_read_as_one_hand_at_the_moments_edge_then_the_other_players_hands_read_both_turns",
            "spirit_set_down_for_a_moment_then_moved_on_is_one_hand_not_a_reply",
            "spirit_set_down_a_moment_kept_by_the_next_players_turn_is_no_one_hand"}

# Knock 18 (session 52, cut from Blue's Rhinoceros d4e3 c3d2): Red's Sheep d2c3 lifts the Spirit
# off d2 and knocks Blue's e3 98 ms later, puts it back 2.5 s later. Its put-back cost one noise,
# and the swap that amends Rhinoceros to c3e3 (the Spirit onto e3, its student to c3) none: read
# so, wrong. A piece lifted at once after another (``knocking.KNOCK_SPAN`` clears) is the hand's
# knock, put back at no noise (``PieceMaps.change``): the two tie, and the table asks.
KNOCKED_FREE = {"knocked_pawn_put_back_late_is_no_noise_asked_not_read_as_the_turn_before_amended"}
# Robot-hesitation 12 (session 53, cut from Blue's Nessie a5c4): the robot's Octopus c2b3 b4b5
# lands its pawn on b3 in the scan it lifts the Spirit off b4, lifts Blue's pawn off b5 10 ms
# later (the Spirit's swap), and sets both down in one scan. With b5 counted a knock of b4's lift
# once b4's piece "landed" (the session 52 prototype), the map with the Spirit read as carried
# b4 -> b3 in its lift's scan and b5's pawn put back free made a third reading, and the answer
# "Octopus" left two: the turn stood 9 s late, with the next. A knock's put-back is free only
# where the knocking piece landed elsewhere after the knock (``knocking.moved``): answered at once.
KNOCK_MOVED = {"robot_swap_lifted_beside_its_pawn_step_is_no_knock_answered_at_once"}
# Knock 84, 94, 194 (session 54, cut before the knocking turn): the Spirit moved by a card
# (Blue's Steer e4d4) knocks a pawn off its neighbour square (e5), which is put back once the
# Spirit is down: free, and tied with a Wind card that carries both (Spider e5d4 e4e5, the
# pawn's step and the Spirit onto e5), which puts nothing back. Asked, and nobody answers in
# knock: 3.7-7.7 s late. A reading whose put-backs are all knocks, none of the Spirit, goes
# first where its map put the knocked piece back free (``knocks._moved_knocks``).
KNOCK_BEFORE_NONE = {
    "knocked_pawn_put_back_once_the_spirit_moved_goes_before_a_wind_swap_of_both",
    "spirit_knocking_a_pawn_read_at_once_and_the_reply_after_it",
    "knocked_pawn_put_back_once_the_spirit_moved_goes_before_a_wind_card_of_both",
}
# Knock 122 (session 54, cut from Blue's Hawk a1b2 c3e2: the maps need its turns): Blue's
# master lands on c5 2.6 ms before the pawn it knocked off b5 is back, one scan as debounced.
# Placed first in that scan, the pawn's put-back was no knock (its knocker not yet down) and
# the turn stood 5 s late, with the next. Knocked squares are placed last in a scan, and a
# knocker set down in the put-back's scan moved (``knocking.moved``).
KNOCK_SAME_SCAN = {"knocker_set_down_in_the_scan_its_neighbour_comes_back_puts_it_back_free"}
# Knock 120 (session 54, cut before Red's Bat d1d2 e1d2): Bat is published part-way (its swap's
# board has the same squares filled), then its swap is made (d2 and e1 lifted, set down). Blue's
# Moth d2d1 knocks the pawn the swap put on e1: counted from the swap's lift of e1 too, Moth's
# put-backs were not all knocks, and it was asked with taking Bat back (3.7 s late). A piece put
# back counts by its square's last lift (``knocks._put_back``).
KNOCK_LAST_LIFT = {"knocked_pawn_a_swap_reseated_before_counts_by_its_last_lift"}
# Knock 178 (session 55, cut from 18.5 s): Red's Scorpion b2c1 -, its hand knocking b1 (put back
# 1.5 s later), is published; Blue's Cobra e5d4 (a Spirit swap) is also Scorpion amended to
# Octopus b2c1 e5d4. Counted from before Scorpion, the amendment's put-back was a knock, and the
# knock rule put it before Cobra, which puts nothing back: amended, then back (Cobra 1.7 s late).
# A knock counts only when it came after every reading's published turns: asked, as it is.
KNOCK_SINCE_ALL = {"knocked_pawn_put_back_in_a_published_turn_does_not_put_its_amendment_first"}
# Knock 156 (session 55, cut from 91.5 s): Red's Rhinoceros d1d2 c5a5 is published as Sheep d1d2
# at the pawn's rest; its hand lifts the Spirit off c5 and knocks Blue's b4 89 ms later (more
# than ``clear``, within the knock's span), put back once the Spirit is on a5. Counted as Blue
# starting, the amend window closed and Blue's Octopus b4a5 c5b4 was read (wrong, wedged). A
# lift within the knock span of another is no proof of start (``starting.starts``).
KNOCK_NO_START = {"knocked_pawn_lifted_within_the_knock_span_of_the_spirits_lift_leaves_the_amend_window_open"}

# Snatch 182 (session 52, cut from Blue's Eagle c4b3 -): Red's Spider b2b1 c2d3, then the Spirit
# d3 -> c2 -> e2 (Blue's Phoenix d3c2, Red's Rabbit c2e2), which is also Blue's Phoenix d3e2
# alone: Spider is published and the two asked, answered Rabbit. Spider was dated at the mat's
# last change (Rabbit's landing on e2), and so, at the answer, was Phoenix: the anchor moved
# past Rabbit's own steps, no history walked them again, and the game's last three turns (Boar
# e2e1, Phoenix c3b4, Rabbit c5b4) were never read. Turns published while every history goes on
# past them were shown before the hands of the turn after them (``showing.before_next``).
SHOWN = {"spirit_moved_twice_or_once_asked_the_turns_after_are_read_after_the_answer"}

# No-answer 26 (session 53, cut from its start): Blue's Goat c4d4 (the Spirit) taken back, or
# Red's Elephant d4c4 moving it straight back: one mat, asked ("Elephant, or take back Goat?"),
# then "Octopus or Goat?" once Blue's Octopus d5e4 c4c3 followed either. Red's Rabbit c1d2
# started: the histories that keep the published Goat go first (``least_noise``), Elephant and
# Octopus are published, and Goat stood, so Red's "take back" (6 s after it was offered) was
# about a turn that stood: lost, the game wrong and wedged. (With the old date, the reply was
# never read and the takeback was, by accident: ``showing.before_next``.) A turn a question
# offered to take back, still asked about when a publication keeps it, stays open while the
# mat is still (``Heard.back_offered``, ``Record.hold_for_answer``): the late answer, before
# the next hands, takes it back (Elephant and Octopus taken back, Octopus published again).
# Session 55: "Octopus or Goat?" asks about the published Goat with an option in its place, so
# Red's start no longer reads Elephant and Octopus (``undoing.asked_instead``): nothing is
# published and taken back at 20.2 s; the late "take back" reads the game as played.
HELD_FOR_AN_ANSWER = {"takeback_offered_then_kept_by_the_next_hands_stays_open_for_a_late_answer"}
# Spirit-back 167 (session 53, cut from 100 s: its turn 27 on): the Spirit shuttled d2-c3 by
# both players, a turn published and held open for a late takeback answer while a question
# about it stays open. The mat changed, the hold ended and its turns stood, but the open
# question was still the one asked from the old anchor: Blue's "Bear" missed it, and the game's
# last six turns were never recorded. Released, the question is asked again from the anchor
# now (``explaining.asked_again``): "Bear" reads Bear d2c3 and Iguana c3d2.
ASKED_AGAIN = {"spirit_back_hold_released_the_question_is_asked_again_from_the_anchor_now"}
# Snatch 46 (session 54, cut from 79 s): the Spirit snatched twice (Nessie c4b3, 0.2 s later
# Goat b3c3, 0.18 s later Sasori c3e3 set down on d3 for 0.1 s on its way), no rest between.
# ``going_on`` put a chain of fast turns over the published Cobra d3c4 changed, but only one
# whose lifted squares it leaves untouched are a subset of the change's: Nessie c4d3, Goat
# d3e3 (b3 and c3 set-downs), not the three turns (d3 alone a set-down). Blue's Nessie e3d4
# was then read as Goat amended, and the game wedged. Of the chains, the one that leaves the
# fewest lifted squares untouched goes on.
FEWEST_UNTOUCHED = {
    "spirit_snatched_twice_then_set_down_on_its_way_reads_the_chain_with_fewest_lifts_untouched"}
# Snatch 116 (session 54, cut from 106.5 s): Red's Bat d3d4 b1c2, Blue's Ox c2c3 and Red's
# Rat c3d2 snatched from hand to hand, or Red's Bat d3d4 b1d2 alone (the same board, other
# cards): asked ("Bat or Rat?"), nobody answers. Blue's Bat a5a4, its Spirit lifted off d2
# 42 ms after the pawn landed: ``whole_first`` dropped that part-way reading for the whole
# Ox a5a4 (Bat in Red's hand), the Spirit's lift was read as Red's reply and Bat d3d4 b1d2,
# Ox a5a4 published before rest; the game wedged. A part-way reading stays beside whole ones
# that play the card it played at the turn asked about with its Spirit elsewhere, over fewer
# turns (``on_its_way._spirit_apart``): the mat does not tell how far that Spirit went.
SPIRIT_APART = {"spirit_snatched_on_twice_asked_then_a_wind_card_lifting_it_is_no_reply"}
# Snatch 26 (session 54, cut from 17.5 s): Blue's Turtle c3d2 (a pawn) published, then the
# Spirit snatched on from b1, where it stood: Hornet b1d3, Goat d3c3, Otter c3d2. ``going_on``
# wanted the chain's first new turn to lift where the published one set down (``_carried``),
# so Turtle taken back and Mejika b1d2 stood, and the game wedged. The Spirit is carried from
# turn to turn among the new turns only.
CARRIED_AFTER = {"spirit_snatched_on_from_where_it_stood_after_a_pawn_turn_is_a_chain_not_a_takeback"}

# Onlooker 81 (session 54, cut from 77 s): Blue's Serow c3c2 takes c2; 1.3 s after its rest an
# onlooker lifts Red's b2 for 0.13 s, where Kumo c3b2 reaches: "Kumo or Serow?" is asked and
# never answered. Red's Steer e2d2 follows either reading; it waited for Blue's Kumo b5c4 (4.3 s
# late). Now it is read at its rest on the turn as published (``ahead.read_ahead``), the
# question left open until Kumo b5c4 settles it.
READ_AHEAD = {"onlooker_brush_asked_never_answered_the_reply_every_reading_makes_is_read_at_its_rest"}

# Spirit-back 136 (session 54, cut from 10 s): Blue's Octopus d5e4 d4e4, Red's Dog e4d4 moving
# the Spirit straight back (published; Octopus kept open for its takeback, the pawn's return),
# then Blue's Butterfly d4d5. The same mat is Octopus d5e4 d4d5, its Spirit step amended through
# Dog's: asked ("Octopus or Butterfly?", on no button), and read only at Red's next hands. Once
# the other player's move is published, the mover's window to amend is closed: the reading that
# keeps Dog goes first (``reply_stands``: the Spirit stood 2.4 s on e4 and 2.9 s on d4, no one
# hand's moments), Butterfly d4d5 is published at its rest.
# Spirit-back 7 (session 55, cut from 50.5 s): Blue's Sable c3d4 (a regular card's Spirit
# move), Red's Otter d4e3 (asked, whose step: nobody answers), Blue's Phoenix e3d2. The same mat
# is Phoenix c3d2, one hand through d4 and e3: "Sable or Phoenix?" again, Otter and Phoenix read
# only at Red's Rhinoceros. The Spirit stood 2.7 s on d4 and 2.3 s on e3: no one hand's
# moments, the reading that keeps Sable and reads Otter goes first, both read at Phoenix's rest.
REPLY_STANDS = {"spirit_back_reply_published_the_turn_before_is_not_amended_through_it",
                "spirit_amended_through_an_asked_reply_it_stood_on_reads_the_reply",
                "spirit_home_through_an_asked_reply_it_stood_on_is_no_takeback"}
# Spirit-back 157 (session 55, cut from 119.5 s): Blue's Ox e1e2 (the Spirit), Red's Dragon
# e2d1 (asked, whose step: nobody answers), Blue's Elephant d1e1 home. The same mat is Ox taken
# back, one hand through d1: Red was asked "take back Ox e1e2?" (`"choose": []`), nobody
# answered, the turns read at Red's Lion. The Spirit stood 2.8 s on e2 and 2.4 s on d1: the
# reading of Dragon and Elephant goes first, both read at Elephant's rest.
# Questions nobody answers (session 55, track n). No-answer 10 (cut from its start): Blue's
# Whale c3a3 ("Sasori or Whale?"), then Red's Cricket a3c3 moves the Spirit back before anything
# is published. The game's start counted as no rest, so Whale's board (rested on) was not
# counted either, and only "nothing played" was left: the question cancelled, Octopus b5c4 c3c2
# fitted no history, the game wedged from its first turn. The start is a rest (the recognizer's
# ``t``). No-answer 144 (cut from 6 s): Red's Mantis c3b4, the Spirit moved back ("Frog, or take
# back Mantis?"), Red's Lion a1b2 c3c4 asked "Lion or Mantis?" (Mantis taken back, or Blue's Frog
# and Lion): Blue's start kept only the histories that keep Mantis, as if no question asked
# about it (``undoing.asked_instead``); Blue's late "take back" now reads it. No-answer 34 (cut
# from 78 s): "Hornet, or take back Sheep c2b2?" was offered after Goat c3c2 and after Butterfly
# c3c2; Red answered "Goat", then "Hornet" once another question was open: the answer was kept
# but named two turn-sequences before it, so it answered nothing, and 28 turns were never read.
# The sequences the published turns rule out are dropped (``Heard._live``).
UNANSWERED = {"spirit_moved_and_moved_back_before_anything_is_published_reads_both_turns",
              "takeback_of_a_published_turn_asked_as_which_card_survives_the_next_players_start",
              "late_answer_after_its_question_moved_on_answers_the_histories_the_published_turns_keep"}

GAMES = 200
FEW = 8    # games per category of hands in the default run
CALM_FEW = 40  # calm games in the default run
T_TOLERANCE = 0.05


def load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def same_events(got: list[dict], want: list[dict], tolerance: float) -> bool:
    def strip(events):
        return [{k: v for k, v in e.items() if k != "t"} for e in events]
    return (strip(got) == strip(want)
            and all(abs(g["t"] - w["t"]) <= tolerance for g, w in zip(got, want)))


def _asked(seed: int, category: str, move: str) -> tuple[GeneratedGame, Turn, list[dict]]:
    """A generated game, its turn ``move`` (the one asked about) and the events it expects."""
    game = generate_game(seed, variant=variant_for(category, seed), category=category)
    asked = game.turns[[t.move for t in game.turns].index(move)]
    return game, asked, [e.event for e in game.expect]


def test_the_corpus_covers_every_case():
    assert (CASES | ISSUE_12 | ROBOT | READ_BACK | FAST_REPLIES | HELD | MIDWAY | ON_ITS_WAY
            | TAKEN_BACK | LEFT_OPEN | AT_ONCE | IN_PLACE | WON_AMENDED | SETTLE_TIE
            | AFTER_TAKEBACK | REPLACED | SWAP_OR_PUT_BACK | KNOCK_AFTER_PUBLISHED | LAID
            | AT_WORK | KEPT_AT_LIFT | ONE_MOVED | SPIRIT_HELD
            | SPIRIT_MOVED_ON | ANSWERS | BOTH_TRUE | BRUSHED_TWICE | NAMED_TURN | ROUND_TRIP
            | KNOCKED_OFF | HOVERED | SET_DOWN_ON_ITS_SQUARE | NOT_ALONE | PROVES | PAIR
            | FAST_MAPS | AT_WORK_EMPTY | REREAD | VICTIM | KNOCKS | GLIMPSES
            | STARTED | DATED | ONE_HAND | KNOCKED_FREE | KNOCK_MOVED | SHOWN
            | HELD_FOR_AN_ANSWER | ASKED_AGAIN | FEWEST_UNTOUCHED | SPIRIT_APART
            | KNOCK_BEFORE_NONE | KNOCK_SAME_SCAN | READ_AHEAD | KNOCK_LAST_LIFT
            | CARRIED_AFTER | KNOCK_SINCE_ALL | KNOCK_NO_START
            | REPLY_STANDS | UNANSWERED
            <= {p.stem for p in CORPUS})
    assert ISSUE_21 == {p.stem for p in STORIES}


def _story(path: Path) -> GeneratedGame:
    """A story's trace with the turns its hands played (``NAME.record.json``)."""
    header, events = parse_trace(path.read_text().splitlines())
    record = json.loads(path.with_name(path.stem + ".record.json").read_text())
    turns = [Turn(**turn) for turn in record["turns"]]
    game = GeneratedGame(header, "story", events, turns, noise=record["noise"])
    game.played = [turn.move for turn in game.record_turns()]
    return game


# What issue 21 found and the recognizer does not yet read (it tracks one state, not every
# history the mat allows): each of these fails today, as the issue measures. Strict, so the
# recognizer that reads them turns each into a failure here until its mark is removed.
OPEN = pytest.mark.xfail(strict=True, reason="issue 21: the recognizer does not keep every history")
# The categories whose first FEW games fail today, and those whose 200 games do (docs/traces.md;
# the hypothesis recognizer's, measured on 40 games: docs/recognizer-hypotheses.md).
OPEN_FEW = {"air-touch"}
# (Snatch's first few are read since session 53: its game 0, wedged by turns dated after the
# hands went on from them, ``showing.before_next``.)
# (Hurried's first few are read since session 49's glimpses: games 0-7.)
# (Set-down's first few games are read since session 46's pair: its game 4; late-answer's since
# session 49's which-card dating: its game 7.)
# (Spirit-back's first few are read since session 55's ``reply_stands``: its game 7, Sable c3d4
# read as Phoenix c3d2 through Otter d4e3's unanswered whose-step question.)
OPEN_200 = OPEN_FEW | {"spirit-back", "snatch", "hurried", "late-answer", "no-answer", "slides", "aside-empty", "takeback-wind", "onlooker", "knock",
                       "set-down"}


def _open(categories: list[str], still_open: set[str]) -> list:
    return [pytest.param(c, marks=OPEN) if c in still_open else c for c in categories]


# The stories the recognizer does not read yet (story 6, the last, is read since session 39).
OPEN_STORIES: set[str] = set()


@pytest.mark.parametrize("path", [pytest.param(p, marks=OPEN) if p.stem in OPEN_STORIES else p
                                  for p in STORIES], ids=lambda p: p.stem)
def test_issue_21_story(path):
    """The moves played stand in the record at the end, no wrong commit, no wedge, no commit
    before rest, each turn the mat settles committed within 0.5 s of its rest (whatever
    questions are asked on the way)."""
    game = _story(path)
    score = Score()
    score.add(0, game, list(replay(game.header, game.events)))
    assert score.exact == 1, score.problems


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_hand_written_trace(path):
    header, events = parse_trace(path.read_text().splitlines())
    # Replayed as the live mat ran (a recorded trace's header carries its settle time).
    got = list(replay(header, events, settle=header.get("settle", SETTLE_S)))
    want = load(path.with_suffix(".expected.jsonl"))
    assert same_events(got, want, T_TOLERANCE), f"{got} != {want}"


def test_the_command_prints_json_lines_exactly():
    path = TRACES / "two_cards_prompt.jsonl"
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "trace", str(path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        '{"t": 1.875, "prompt": {"seat": "red", "choose": ["Ox", "Boar"], "buttons": {"Ox": "A", "Boar": "B"}}}',
        '{"t": 3.0, "move": "Boar a1a2"}',
    ]


def test_a_bad_trace_is_one_line_and_status_2(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"trace": 1, "position": "bbBbb/5/5/5/rrRrr red Tiger,Crab Monkey,Crane Dragon"}\n'
                   '{"t": 2.0, "off": "c1"}\n{"t": 1.0, "on": "c1"}\n')
    proc = subprocess.run([sys.executable, "-m", "companion.cli", "trace", str(bad)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip() == "error: line 3: 't' must be a number of seconds, never decreasing"


def test_a_recorded_trace_replays_to_the_same_understanding():
    game = generate_game(7, variant="wind")
    out = io.StringIO()
    out.close = lambda: None   # keep the text readable after the recorder ends the trace
    recorder = TraceRecorder(out, game.header["position"], "wind", start=0.0)
    first = list(replay(game.header, game.events, recorder=recorder))
    header, events = parse_trace(out.getvalue().splitlines())
    again = list(replay(header, events))
    assert any("move" in e for e in first)
    # Recorded at scan times: the understanding may shift by one scan period at most.
    assert same_events(again, first, 0.011)


def test_generated_games_are_repeatable():
    assert generate_game(3).events == generate_game(3).events


def test_a_question_left_open_is_not_settled_while_the_replys_other_card_fits():
    """Spirit-back 32: Red's Mantis a3b4 (the Spirit) may be Blue going on with Ox b3b4, and
    Rabbit, Red's other card, makes the same step. Blue's Boar a5a4 rules out the amendment,
    not Rabbit (six turns on, both histories reach the same position: no turn can ever tell
    them apart), so the hands must still answer Mantis: when the next question is due (Boar
    b5a5), not never."""
    game = generate_game(32, variant=variant_for("spirit-back", 32), category="spirit-back")
    moves = [t.move for t in game.turns]
    asked = moves.index("Mantis a3b4")
    answers = [e["t"] for e in game.events if "input" in e
               and {k: v for k, v in e["input"].items() if k != "turn"} == {"seat": "red", "card": "Mantis"}]
    assert answers and game.turns[asked].rest < answers[0] < game.turns[asked + 8].rest


def test_a_spirit_moved_straight_back_is_decided_by_the_reply_that_lifts_the_cards_pawn():
    """Fast 74: Blue's Octopus c5d4 b3c4, Red's Mouse c4b3 (the Spirit straight back along the
    Octopus's Spirit step), and Blue's hand lifts d4 0.32 s after Mouse's rest for Serow d4c4.
    Until that pawn lands elsewhere the mat is also the Octopus taken back, Spirit first: the
    Mouse is certain only at the reply's rest, not 0.5 s after its own."""
    game = generate_game(74, variant=variant_for("fast", 74), category="fast")
    moves = [t.move for t in game.turns]
    mouse = moves.index("Mouse c4b3")
    assert moves[mouse - 1] == "Octopus c5d4 b3c4" and moves[mouse + 1] == "Serow d4c4"
    assert game.turns[mouse].decided_by == game.turns[mouse + 1].rest


def test_the_robots_spirit_put_back_after_its_pawn_step_is_a_question_answered():
    """Robot 27: Bat e3e4 a3b4, the Spirit lifted as the pawn lands, put back for 0.12 s (twice
    the robot's settle time), then moved. The mat rests on the pawn's step alone, Ox e3e4, a
    turn of its own; the Spirit's step is then Red's Bat or Blue's Sable, which nothing on the
    mat tells apart: Ox is committed, and Red answers Bat after a player's delay."""
    game, asked, expected = _asked(27, "robot", "Bat e3e4 a3b4")
    assert {"move": "Ox e3e4"} in expected
    assert {"prompt": {"seat": "red", "choose": ["Bat"],
                       "reply": {"seat": "blue", "choose": ["Sable"]}}} in expected
    assert asked.answered is not None and asked.rest < asked.answered
    assert any(e["t"] == asked.answered and ("input" in e or "press" in e) for e in game.events)


def test_a_spirit_step_like_the_mover_retaking_the_turn_is_a_question_answered():
    """Slide-over 6: Blue's Spider d5c4 d4d5, then Red's Tanuki d5c4 (the Spirit swapped with
    Blue's pawn on c4). The mat is also Blue taking Spider back for Boar d4c4 (the Spirit from
    d4 to c4, the pawn back on d5): the same squares emptied, another player to move. Red
    answers Tanuki after a player's delay."""
    _, asked, expected = _asked(6, "slide-over", "Tanuki d5c4")
    assert {"prompt": {"seat": "blue", "choose": ["Boar"],
                       "reply": {"seat": "red", "choose": ["Tanuki"]}}} in expected
    assert asked.answered is not None and asked.rest < asked.answered


def test_a_spirit_set_down_on_its_way_is_a_question_answered():
    """Set-down 16: Blue's Rooster e4d3, the Spirit set down on d4 for 0.74 s, then moved on.
    The mat rests on Rooster e4d4, a turn of its own; the Spirit's step on to d3 is then Blue
    going on or Red's Sheep d4d3, which nothing on the mat tells apart: Rooster e4d4 is
    committed, and Blue answers Rooster after a player's delay."""
    game, asked, expected = _asked(16, "set-down", "Rooster e4d3")
    assert {"move": "Rooster e4d4"} in expected
    assert {"prompt": {"seat": "blue", "choose": ["Rooster"],
                       "reply": {"seat": "red", "choose": ["Sheep"]}}} in expected
    assert asked.answered is not None and asked.rest < asked.answered
    assert any(e["t"] == asked.answered and ("input" in e or "press" in e) for e in game.events)


def test_a_takeback_asked_keeps_the_turn_made_in_its_place_until_the_answer():
    """Late-answer 174: Red's Cat c3c2 moves the Spirit straight back, and the mat asks
    "Serow, or take back Cat c3c2?". The hands go on before the answer comes; the histories
    that take Cat back and make another turn in its place must stay until the player answers
    (``undoing.instead``), or the reply is committed first: without them the game records
    Serow c2c3 for Cricket d3b3 and wedges (f905d05 wedged earlier, 17 turns never recorded)."""
    score = _score(range(174, 175), "late-answer")
    assert score.problems == [] and score.wrong == 0 and score.wedged == 0


def test_the_robots_carried_swap_like_the_mover_amending_is_a_question_answered():
    """Robot 156: Blue's Lion d5c4 a3a1 swaps Red's student onto a3; Red's robot lifts a3 and
    a1 at once and sets a1 and a2 (Spider a3a2 a1a2, the pawn carried straight to where its
    Spirit swaps it: no square emptied in between). That is also Blue amending Lion's Spirit
    step to a3a2, so the table asks whose step (the generator once read the carried swap as
    two acts, a2 emptied too, expected no question and timed Spider)."""
    _, asked, expected = _asked(156, "robot", "Spider a3a2 a1a2")
    assert {"prompt": {"seat": "blue", "choose": ["Lion"],
                       "reply": {"seat": "red", "choose": ["Spider"]}}} in expected
    assert asked.answered is not None and asked.rest < asked.answered


def test_two_turns_that_undo_the_one_before_them_are_a_takeback_question_answered():
    """Slides 44: Blue's Lion b1c2 c4c3, Red's Mouse moves the Spirit straight back, Blue's
    Cobra moves the pawn straight back. The switches are Blue taking Lion back Spirit first
    (rule 5, move or takeback), so the table asks "Cobra, or take back Lion?", and Blue
    answers Cobra (the generator once looked one turn back only, expected no question and
    timed Cobra: 8.4 s late by its count)."""
    _, asked, expected = _asked(44, "slides", "Cobra c2b1")
    assert {"prompt": {"seat": "blue", "choose": ["Cobra"], "takeback": "Lion b1c2 c4c3"}} in expected
    assert asked.answered is not None and asked.rest < asked.answered


def test_a_held_piece_landing_on_another_capture_after_one_was_shown_is_a_question():
    """Air-touch 1: Red holds its pawn off c3 while Blue re-seats its master on b4, which the
    mat shows as Phoenix c3b4; the pawn then takes c4 (Sea-Snake c3c4). The mat now shows both
    captures, each with one piece lifted and put back: which card is asked, and Red answers."""
    game = generate_game(1, variant=variant_for("air-touch", 1), category="air-touch")
    moves = [t.move for t in game.turns]
    asked = game.turns[moves.index("Sea-Snake c3c4")]
    assert {"prompt": {"seat": "red", "choose": ["Phoenix", "Sea Snake"]}} in game.expected()
    assert asked.answered is not None and asked.rest < asked.answered


def test_generated_games_do_not_depend_on_the_hash_seed():
    """The same seed gives the same hands in every process: the tests' games are the
    benchmark's. A Wind takeback's hand once took its pieces in a set's order (game 0 of
    takeback-wind was another game under each PYTHONHASHSEED)."""
    code = ("import sys; sys.path.insert(0, 'tests/support'); from tracegen import generate_game;"
            "print(repr(generate_game(0, variant='wind', category='takeback-wind').events))")
    root = Path(__file__).resolve().parents[2]
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                           cwd=root, env={**os.environ, "PYTHONHASHSEED": str(h)}) for h in (0, 1, 2)]
    assert all(r.returncode == 0 for r in runs), [r.stderr for r in runs]
    assert runs[0].stdout == runs[1].stdout == runs[2].stdout


def _score(seeds: range, category: str = "calm", stop: bool = False, **options) -> Score:
    score = Score()
    for seed in seeds:
        game = generate_game(seed, variant=variant_for(category, seed), category=category)
        settle = game.header.get("settle", SETTLE_S)   # (the robot's hands: its own)
        score.add(seed, game, list(replay(game.header, game.events, settle=settle, **options)),
                  settle=settle)
        if stop and score.problems:
            break
    return score


def _accept(category: str, games: int, stop: bool = False) -> Score:
    """``games`` random games of ``category``, half base and half Wind (0-5 Wind Spirit
    cards, all card sets), on two processes; with ``stop``, each process stops at its first
    game read wrong (for a test that fails on any: the same verdict, sooner)."""
    with ProcessPoolExecutor(2) as pool:
        parts = list(pool.map(_score, [range(0, games, 2), range(1, games, 2)], [category] * 2,
                              [stop] * 2))
    total = Score()
    for part in parts:
        total.merge(part)
    print(f"\n{category}: {total.games} games, {total.exact} exact, {total.moves} moves, "
          f"{total.committed} committed as played, {total.wrong} wrong, {total.wedged} wedged, "
          f"{total.early} before rest; questions expected {total.prompts_expected}, raised "
          f"{total.prompts_raised}; amended {total.amended}; worst delay "
          f"{max(total.delays, default=0.0):.3f} s")
    return total


def _check(total: Score, games: int) -> None:
    """Acceptance of issue 21: at least 99.5 % of games exact, no wrong commit, no wedged game,
    no commit before rest, the worst rest-to-commit time at most 0.5 s."""
    assert total.games == games
    assert total.wrong == 0 and total.wedged == 0 and total.early == 0, total.problems[:5]
    assert total.exact >= 0.995 * games, total.problems[:5]
    assert max(total.delays) <= 0.5


@pytest.mark.parametrize("games", [CALM_FEW, pytest.param(GAMES, marks=pytest.mark.slow)])
def test_acceptance_over_generated_games(games):
    """Calm games, GAMES of them with the slow checks (the acceptance of issue 5; CALM_FEW in
    the default run, where the 200 took 97 s of its 10 minutes): every game exactly as played."""
    total = _accept("calm", games)
    assert total.problems == []
    assert total.wrong == 0 and total.committed == total.moves
    # The hypothesis recognizer asks only what the next hands will not settle (issue 21, "a
    # question is a filter"): a question it leaves out is one whose turn still committed as
    # played within 0.5 s of its rest (the asserts around this one).
    assert total.prompts_raised <= total.prompts_expected
    assert max(total.delays) <= 0.5


@pytest.mark.parametrize("category", _open([c for c in CATEGORIES if c != "calm"], OPEN_FEW))
def test_hands_that_are_not_calm(category):
    """A few games of each category of hands that are not calm (the benchmark and the slow
    test play 200 each). The categories of issue 21 (habits.HABITS) fail on the recognizer
    before it: that is what they are for."""
    total = _accept(category, FEW, stop=True)
    assert total.problems == [] and total.wrong == 0 and total.wedged == 0
    assert max(total.delays) <= 0.5


@pytest.mark.slow
@pytest.mark.parametrize("category", _open(list(CATEGORIES), OPEN_200))
def test_hands_of_every_category_over_200_games(category):
    _check(_accept(category, GAMES), GAMES)


def test_the_acceptance_check_catches_a_careless_recognizer():
    """Counting a square as lifted however briefly it opened turns brushes into captures and
    swaps: the same check must then fail."""
    for seed in range(40):
        if _score(range(seed, seed + 1), clear=0.0).problems:
            return
    pytest.fail("40 games played by a careless recognizer passed the acceptance check")


@pytest.mark.parametrize("category", CATEGORIES)
def test_every_category_plays_a_legal_game_the_record_can_follow(category):
    """The generator's own bookkeeping: the turns that stand are the game played, every turn
    but a pass has its hands' first and last transitions, and the trace parses."""
    for seed in range(3):
        game = generate_game(seed, variant=variant_for(category, seed), category=category)
        assert [t.move for t in game.record_turns()] == game.played
        assert all(t.start is not None and t.start <= t.rest for t in game.turns
                   if not t.move.endswith(" pass"))
        parse_trace(json.dumps(line) for line in game.lines())
        assert game.played
        # Every transition changes its switch, and at each turn's rest the mat is the game.
        board = Board(game.header["position"])
        closed = set(board.position.occupied())
        rests = []
        for turn in game.turns:
            board.pop() if turn.move.startswith("takeback ") else board.push(turn.move)
            rests.append((turn.rest, set(board.position.occupied()), turn.move))
        for event in [*game.events, {"t": float("inf")}]:
            while rests and rests[0][0] < event["t"] - 0.001:
                rest, occupied, move = rests.pop(0)
                assert closed == occupied or move.endswith(" pass"), (seed, move, rest)
            if "on" in event or "off" in event:
                sq = parse_square(event.get("on") or event["off"])
                assert (sq in closed) == ("off" in event), (seed, event)
                closed ^= {sq}


def test_every_habit_is_a_category_of_its_own():
    assert set(HABITS) <= set(CATEGORIES) and len(set(CATEGORIES)) == len(CATEGORIES)
    for category in HABITS:
        assert generate_game(5, variant="wind", category=category).events != \
            generate_game(5, variant="wind", category="calm").events


def _scored(game, output) -> Score:
    score = Score()
    score.add(0, game, output)
    return score


def test_the_score_reads_the_record_that_stands():
    """A wrong move counts where it stands; amended away, it does not; a mismatch left to the
    end is a wedge; a commit made while the hands are still at work is before rest."""
    game = generate_game(2, variant="wind", category="calm")
    output = list(replay(game.header, game.events))
    assert _scored(game, output).exact == 1
    first = next(i for i, e in enumerate(output) if "move" in e)
    move = output[first]
    wrong = {**move, "move": "Nobody a1a2"}
    assert _scored(game, [*output[:first], wrong, *output[first + 1:]]).wrong >= 1
    amended = [*output[:first], wrong, {"t": move["t"], "takeback": "Nobody a1a2", "amend": True},
               move, *output[first + 1:]]
    assert _scored(game, amended).exact == 1
    wedged = _scored(game, [*output, {"t": 1e4, "mismatch": ["a1"]}])
    assert wedged.wedged == 1 and wedged.exact == 0
    turn = game.record_turns()[0]
    hurried = {**move, "t": round(turn.start + 0.09, 3)}
    early = _scored(game, [*output[:first], hurried, *output[first + 1:]])
    assert early.early == 1 and early.exact == 0
