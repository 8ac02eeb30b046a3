"""Drawing pages: the HTML replay viewer and the chart report, built from the games' own
drawings (``render``) and the replay's results."""
