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


def _package_of(graph, module):
    """The package a module belongs to: itself if it is a package, else its parent."""
    return module if graph.find_children(module) else module.rpartition(".")[0]


def _private_names_imported(graph):
    """Every ``from B import _name`` in the app, as (importer, B, name); grimp names the
    modules and their imports, the source's ``ImportFrom`` nodes the names."""
    import ast
    import importlib.util

    found = []
    for module in sorted(graph.modules):
        spec = importlib.util.find_spec(module)
        if spec is None or spec.origin is None or not spec.origin.endswith(".py"):
            continue
        with open(spec.origin, encoding="utf-8") as source:
            tree = ast.parse(source.read())
        package = module if spec.submodule_search_locations is not None \
            else module.rpartition(".")[0]
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            base = importlib.util.resolve_name("." * node.level + (node.module or ""), package) \
                if node.level else node.module
            if base not in graph.modules:
                continue
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append((module, base, alias.name))
    return found


def test_no_module_outside_a_package_imports_its_underscore_names():
    """A name with a leading underscore is its package's own: the rulesets, the window and the
    command line reach an engine only by its public names."""
    graph = grimp.build_graph("campaign1813")
    private = _private_names_imported(graph)
    assert private, "the scan sees the package's own private imports (fight_tests → fight)"
    outside = [(importer, base, name) for importer, base, name in private
               if not (importer + ".").startswith(_package_of(graph, base) + ".")]
    assert outside == []
