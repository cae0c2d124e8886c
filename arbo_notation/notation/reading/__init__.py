"""Reading the .arb notation: the fast scanner, the grammar's parser when it is not sure, and faults in a person's words."""
