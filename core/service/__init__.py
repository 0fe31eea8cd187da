"""The service: one command in, one reply out, in one unit of work (dispatch), its
handlers and read models, and the jobs that fall due."""
