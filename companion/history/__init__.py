"""The history of game nights: statistics, chart data, and export/import (pure logic, no UI)."""
