"""Recording a game at the table: a session that checks each entry, and what may be typed next."""
