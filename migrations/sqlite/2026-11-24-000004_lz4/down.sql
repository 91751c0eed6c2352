-- PostgreSQL's migration of this version sets lz4 compression on the games' large columns;
-- SQLite does not compress: nothing to do (the two folders keep the same versions).
SELECT 1;
