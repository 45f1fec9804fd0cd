#!/usr/bin/env python3
"""OBF lines from `kifu export --table positions` CSV: each game's first position with E empty
squares (where the mover places a disc), labelled with the move played there and the game's
final margin from the mover's view (`BOARD X; D1:+44;`). For games played perfectly from E
empties on (`kifu play --exact-empties E` or more) the label is the position's exact score and
the move a best move; otherwise they are the game's result and choice.

usage: positions_at.py E POSITIONS.csv > SET.obf
"""
import csv
import sys


def main():
    empties = int(sys.argv[1])
    games = {}
    for row in csv.DictReader(open(sys.argv[2], newline="")):
        games.setdefault((row["source"], row["game"]), []).append(row)
    for plies in games.values():
        for k, row in enumerate(plies[:-1]):
            board = row["board"]
            if board.count("-") != empties:
                continue
            after = plies[k + 1]["board"]
            placed = [i for i in range(64) if board[i] == "-" and after[i] != "-"]
            if len(placed) != 1:
                continue  # a pass: the next position has the same count
            square = "ABCDEFGH"[placed[0] % 8] + str(placed[0] // 8 + 1)
            side = "X" if row["side"] == "black" else "O"
            print(f"{board} {side}; {square}:{int(row['final_margin']):+d};")
            break


if __name__ == "__main__":
    main()
