"""What the pages stand on, without drawing: storage, sessions, snapshots, share links, statistics and
daily stores, routes, the message catalogue, the engines' loader and tutorials' data."""
