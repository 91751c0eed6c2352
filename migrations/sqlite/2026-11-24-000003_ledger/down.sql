DROP TABLE ledger_actions;
DROP TABLE ledger;
