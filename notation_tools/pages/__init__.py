"""Drawing pages: the HTML replay viewer (``viewer``, from the games' own drawings and the
replay) and the chart report (``report``, from the run's record reports), their style sheets,
script and HTML frames being package data files read by ``assets``. Prints nothing; the viewer
writes its pages into the directory it is given, the report onto the stream it is given."""
