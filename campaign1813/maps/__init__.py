"""The strategic road network over networkx.

Towns are nodes and roads are edges with their miles, class and river crossings. This package
answers route, march-time, neighbourhood and geometry questions about the map; it knows nothing of
armies, the database or Qt.
"""
