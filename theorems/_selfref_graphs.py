"""selfref thesis, §4.3 and §6: wynnie on graphs (wyg), edge-delete, minnie on graphs.

Loaded by selfref.py (files starting with "_" are not theorem files themselves).
"""
CLAIMS: list = []
