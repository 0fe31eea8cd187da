"""The domain: values, rules and folds (rulebooks, standings, seasons), pure and
time-free. It imports nothing of core above it."""
