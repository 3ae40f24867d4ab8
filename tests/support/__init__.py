"""Helpers the tests of several layers share (test modules import from here, never from each
other); fixtures live in the conftest.py files and use these."""
