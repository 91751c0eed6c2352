-- The explorer is walked again at the next open, by the code that opens the store.
UPDATE explorer_settings SET built = false;
