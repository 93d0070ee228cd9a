"""The audit's intake: the user's table (or arrays) read, its columns found and accounted for, the
key columns factorised once, and models scored on nearly the same rows paired on the rows they share."""
