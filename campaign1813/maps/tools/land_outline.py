"""Build ``data/geography/land.toml``, the land outline drawn under the road map.

Run by hand (it needs ``pyshp`` and ``shapely``, which the app does not):

    python -m campaign1813.maps.tools.land_outline ne_10m_admin_0_countries.shp OUT.toml

The source is Natural Earth's 1:10m Admin 0 countries (public domain). The country polygons are
merged so that no modern border is drawn, clipped to the campaign's box, simplified to about two
miles and stripped of islets; what is left is written as (lat, lon) rings. Where the
simplified coast leaves a town of the map in the sea (the Cadiz spit, Toulon's harbour), a
point is added by hand to the file written, and noted at its head; ``tests/maps/test_land.py``
finds any town left in the sea.
"""

# pyshp and shapely ship no type hints and the app never installs them; whether mypy finds them
# untyped or not at all depends on the machine, so neither is an error in this script alone.
# mypy: disable-error-code="import-untyped, import-not-found"

from __future__ import annotations

import sys

# The campaign's box: Gibraltar to the Baltic, Cape Finisterre to beyond Vienna.
WEST, EAST, SOUTH, NORTH = -10.6, 19.0, 35.4, 56.2
TOLERANCE_DEGREES = 0.025
SMALLEST_ISLAND_SQ_DEGREES = 0.015


def main(argv: list[str]) -> int:
    """Read the shapefile and write the simplified land rings."""
    import shapefile
    from shapely.geometry import box, shape
    from shapely.ops import unary_union

    source, out = argv
    frame = box(WEST, SOUTH, EAST, NORTH)
    shapes = []
    with shapefile.Reader(source) as reader:
        for rec in reader.shapeRecords():
            geom = shape(rec.shape.__geo_interface__)
            if geom.intersects(frame):
                shapes.append(geom.buffer(0).intersection(frame))
    land = unary_union(shapes)
    polygons = list(getattr(land, "geoms", [land]))
    rings = []
    for poly in polygons:
        if poly.area < SMALLEST_ISLAND_SQ_DEGREES:
            continue
        simple = poly.simplify(TOLERANCE_DEGREES, preserve_topology=True)
        if simple.is_empty:
            continue
        for part in getattr(simple, "geoms", [simple]):
            rings.append(list(part.exterior.coords))
            rings.extend(list(hole.coords) for hole in part.interiors if hole.length > 0.5)
    rings.sort(key=len, reverse=True)
    with open(out, "w", encoding="utf-8") as fh:
        fh.write("# Land of the campaign's box, for drawing only. Built by\n")
        fh.write("# campaign1813/maps/tools/land_outline.py from Natural Earth 1:10m\n")
        fh.write("# Admin 0 countries (public domain).\n")
        fh.write(f"box = [{SOUTH}, {WEST}, {NORTH}, {EAST}]\n")
        for ring in rings:
            pts = ", ".join(f"[{lat:.3f}, {lon:.3f}]" for lon, lat in ring)
            fh.write(f"\n[[land]]\npoints = [{pts}]\n")
    print(f"{len(rings)} rings, {sum(len(r) for r in rings)} points")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
