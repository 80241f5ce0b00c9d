import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;

import onitama.ai.Searcher;
import onitama.ai.TranspositionTable;
import onitama.common.Utils;
import onitama.model.Card;
import onitama.model.CardState;
import onitama.model.Move;
import onitama.model.Pair;
import onitama.model.SearchParameters;

/**
 * A line protocol for benchmarks/bench_java.py to the searcher of maxbennedich/onitama (built
 * apart from this project, docs/ai-strength.md; this file only calls its public API, as its
 * own AIPlayer does without pondering: a fresh searcher a move, its suggested table size).
 *
 * In, one line a move: player (0 Red, 1 Blue), the board as 25 characters from a5 to e1
 * (r R b B .), Red's two cards, Blue's two, the side card, the milliseconds to search.
 * Out: card, from, to (squares as a1), nodes, completed depth, score.
 */
public class OnitamaBridge {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        for (String line; (line = in.readLine()) != null; ) {
            String[] f = line.trim().split("\\s+");
            if (f.length != 8) {
                System.out.println("error expected 8 fields");
                System.out.flush();
                continue;
            }
            int player = Integer.parseInt(f[0]);
            Card[][] hands = {{Card.valueOf(f[2]), Card.valueOf(f[3])}, {Card.valueOf(f[4]), Card.valueOf(f[5])}};
            int ms = Integer.parseInt(f[7]);
            int bits = TranspositionTable.getSuggestedSize(Searcher.MAX_NOMINAL_DEPTH, ms);
            Searcher searcher = new Searcher(new SearchParameters(bits, Searcher.MAX_NOMINAL_DEPTH, ms), Utils.NO_LOGGER, false);
            searcher.setState(player, f[1], new CardState(hands, Card.valueOf(f[6])));
            // Iterations one at a time, to count the completed ones: an iteration that ends the
            // search completed only when it found a forced result.
            int completed = 0;
            for (Pair<Integer, Boolean> r = new Pair<>(0, false); !r.q; ) {
                r = searcher.searchNextPly();
                if (!r.q || Math.abs(r.p) == Searcher.WIN_SCORE) completed++;
            }
            Move m = searcher.getBestMove();
            System.out.printf("%s %c%d %c%d %d %d %d%n", m.card.name(), (char) ('a' + m.px), 5 - m.py,
                              (char) ('a' + m.nx), 5 - m.ny, m.nodesEvaluated, completed, searcher.getScore());
            System.out.flush();
        }
    }
}
