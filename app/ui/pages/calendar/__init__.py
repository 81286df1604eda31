"""The calendar view's parts: month and time grids, the event editor and its edits."""
