"""Draw a CSV of samples (first column: time) as a PNG of small line charts,
one per column, with only the standard library (zlib + struct).
    python3 bench/chart.py in.csv out.png
"""
import csv
import struct
import sys
import zlib

W, H, PAD = 640, 150, 24

# 3x5 digit glyphs for the axis labels.
GLYPHS = {
    "0": "111101101101111", "1": "010110010010111", "2": "111001111100111",
    "3": "111001111001111", "4": "101101111001001", "5": "111100111001111",
    "6": "111100111101111", "7": "111001001001001", "8": "111101111101111",
    "9": "111101111001111", ".": "000000000000010", "-": "000000111000000",
}


def text(img, x, y, s, color):
    for ch in s:
        g = GLYPHS.get(ch)
        if g:
            for i, bit in enumerate(g):
                if bit == "1":
                    for dx in range(2):
                        for dy in range(2):
                            put(img, x + (i % 3) * 2 + dx, y + (i // 3) * 2 + dy, color)
        x += 8


def put(img, x, y, color):
    if 0 <= x < W and 0 <= y < len(img):
        img[y][x] = color


def line(img, x0, y0, x1, y1, color):
    n = max(abs(x1 - x0), abs(y1 - y0), 1)
    for i in range(n + 1):
        put(img, round(x0 + (x1 - x0) * i / n), round(y0 + (y1 - y0) * i / n), color)


def main(src, dst):
    rows = list(csv.reader(open(src)))
    head, data = rows[0], [[float(v or 0) for v in r] for r in rows[1:] if r]
    img = [[(255, 255, 255)] * W for _ in range(H * (len(head) - 1))]
    for k in range(1, len(head)):
        top = (k - 1) * H
        xs = [r[0] for r in data] or [0.0]
        ys = [r[k] for r in data] or [0.0]
        x_max, y_max = max(max(xs), 1.0), max(max(ys), 1e-9) * 1.1
        line(img, PAD, top + H - PAD, W - 4, top + H - PAD, (0, 0, 0))
        line(img, PAD, top + 4, PAD, top + H - PAD, (0, 0, 0))
        text(img, 2, top + 4, f"{y_max:.0f}" if y_max >= 10 else f"{y_max:.1f}", (0, 0, 0))
        text(img, W - 60, top + H - PAD + 6, f"{x_max:.0f}", (0, 0, 0))
        # The column number (1: rps, 2: p99 …; names in the CSV header).
        text(img, W // 2, top + 4, str(k), (200, 0, 0))
        pts = [(PAD + (x / x_max) * (W - PAD - 8), top + H - PAD - (y / y_max) * (H - PAD - 8)) for x, y in zip(xs, ys)]
        for (a, b), (c, d) in zip(pts, pts[1:]):
            line(img, round(a), round(b), round(c), round(d), (0, 80, 200))
    raw = b"".join(b"\x00" + bytes(v for px in row for v in px) for row in img)
    def chunk(tag, body):
        return struct.pack(">I", len(body)) + tag + body + struct.pack(">I", zlib.crc32(tag + body))
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", W, len(img), 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    open(dst, "wb").write(png)
    print("panels (top to bottom):", ", ".join(head[1:]))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
