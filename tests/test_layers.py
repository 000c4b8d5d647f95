"""The layers hold: no module of the app imports itself back through others."""

import grimp
import networkx as nx


def test_no_import_circles_anywhere():
    """Every import of every module (function-level ones too, as grimp sees them)."""
    graph = grimp.build_graph("campaign1813")
    imports = nx.DiGraph()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            imports.add_edge(module, imported)
    circles = sorted(sorted(c) for c in nx.simple_cycles(imports))
    assert circles == []


def test_the_map_imports_nothing_of_the_campaign_or_the_window():
    graph = grimp.build_graph("campaign1813")
    for module in graph.find_descendants("campaign1813.maps"):
        for imported in graph.find_modules_directly_imported_by(module):
            assert not imported.startswith(("campaign1813.campaign", "campaign1813.ui")), \
                f"{module} imports {imported}"
