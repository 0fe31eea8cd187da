"""What the tests share: the console chat, the platforms' stand-ins and their limits,
servers and workers."""
