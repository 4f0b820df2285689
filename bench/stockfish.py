# A UCI engine (Stockfish) driven over a pipe, for the bench/ scripts that
# score positions with it (chess_moveloss.sh, chess_teacher.sh): import it
# with bench/ on sys.path.
import subprocess
import sys


class Engine:
    def __init__(self, path, hash_mb=16, threads=1):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send('uci')
        self.until('uciok')
        self.send('setoption name Threads value %d' % threads)
        self.send('setoption name Hash value %d' % hash_mb)
        self.ready()

    def send(self, line):
        self.p.stdin.write(line + '\n')
        self.p.stdin.flush()

    def until(self, word):
        for line in self.p.stdout:
            if line.startswith(word):
                return line
        sys.exit('the engine ended before "%s"' % word)

    def ready(self):
        self.send('isready')
        self.until('readyok')

    def newgame(self):   # its table cleared
        self.send('ucinewgame')
        self.ready()

    def score(self, fen, nodes):
        """The score of fen from the side to move's view, after nodes; a mate as +-10000."""
        self.send('position fen ' + fen)
        self.send('go nodes %d' % nodes)
        sc = 0
        for line in self.p.stdout:
            if line.startswith('info') and ' score ' in line and 'lowerbound' not in line and 'upperbound' not in line:
                t = line.split()
                i = t.index('score')
                sc = int(t[i + 2]) if t[i + 1] == 'cp' else (10000 if int(t[i + 2]) > 0 else -10000)
            if line.startswith('bestmove'):
                return sc
        sys.exit('the engine ended while scoring ' + fen)

    def quit(self):
        self.send('quit')
        self.p.wait()
