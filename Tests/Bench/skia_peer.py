"""The Skia peer of seatmap-bench: the same seats as SeatMap draws (rounded
rects, anti-aliased, in their fills on the background), drawn with
skia-python on a raster surface and written with Skia's PNG encoder, in a
warm process.

    python skia_peer.py SPEC.json OUT.png RUNS

SPEC.json: {"width", "height", "background", "radius", "rects": [x, y, w, h, ...],
"colours": [0xRRGGBB, ...]}. Prints {"seconds": [...]}: each run's time
from an empty surface to the file written (the first run, which loads
Skia's code, is left out).
"""
import json
import sys
import time

import skia


def main():
    spec_path, out, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(spec_path) as f:
        spec = json.load(f)
    width, height, radius = spec["width"], spec["height"], spec["radius"]
    rects, colours = spec["rects"], spec["colours"]
    times = []
    for run in range(runs + 1):
        start = time.perf_counter()
        surface = skia.Surface(width, height)
        canvas = surface.getCanvas()
        canvas.clear(0xFF000000 | spec["background"])
        paint = skia.Paint(AntiAlias=True)
        for i, colour in enumerate(colours):
            x, y, w, h = rects[4 * i:4 * i + 4]
            r = min(radius, w / 2, h / 2)
            paint.setColor(0xFF000000 | colour)
            canvas.drawRRect(skia.RRect.MakeRectXY(skia.Rect.MakeXYWH(x, y, w, h), r, r), paint)
        data = surface.makeImageSnapshot().encodeToData(skia.kPNG, 100)
        with open(out, "wb") as f:
            f.write(bytes(data))
        if run > 0:
            times.append(time.perf_counter() - start)
    print(json.dumps({"seconds": times}))


if __name__ == "__main__":
    main()
