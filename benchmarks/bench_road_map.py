"""Route finding on the shipped map: the time of one shortest route and of a 30-mile search."""

import statistics
import time

from campaign1813.campaign.scenario.loader import read_scenario_folder
from campaign1813.campaign.scenario.map_loader import load_map
from campaign1813.maps.road_map import RoadMap


def _best_of(fn, runs: int = 200) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    """Print the median milliseconds of map loading and route queries."""
    files = read_scenario_folder()
    if "map/towns.toml" not in files:
        print("the shipped scenario has no map yet")
        return
    load_ms = _best_of(lambda: load_map(files), runs=10)
    road_map = RoadMap(load_map(files))
    names = sorted(road_map.towns)
    a, b = names[0], names[-1]
    route_ms = _best_of(lambda: road_map.route(a, b))
    within_ms = _best_of(lambda: road_map.within(a, 30))
    print(f"towns {len(road_map.towns)}, roads {road_map.graph.number_of_edges()}")
    print(f"load and validate the map: {load_ms:8.2f} ms (median of 10)")
    print(f"shortest route {a} → {b}: {route_ms:8.3f} ms (median of 200)")
    print(f"towns within 30 miles of {a}: {within_ms:8.3f} ms (median of 200)")
