"""The history schema as append-only named migrations (component "history" in `_migrations`).

Never edit or reorder a migration once released: append a new one. Each is raw SQL (not
sqlite-utils helpers) so the schema it makes never changes with a library upgrade, and each
runs inside one transaction together with its `_migrations` record."""

from __future__ import annotations

import functools

import sqlite_utils

from skills.common.migrations import MigrationFn, Migrations

MIGRATIONS = Migrations("history")


def _atomic(fn: MigrationFn) -> MigrationFn:
    """Open the transaction explicitly: Python's sqlite3 would run DDL in autocommit, so a crash
    mid-migration could leave half a schema with no record of it. Migrations.apply commits."""

    @functools.wraps(fn)  # keeps __name__, which is the migration's recorded name
    def run(db: sqlite_utils.Database) -> None:
        if not db.conn.in_transaction:
            db.execute("begin immediate")
        fn(db)

    return run


@MIGRATIONS
@_atomic
def m001_conversations(db: sqlite_utils.Database) -> None:
    db.execute(
        """create table conversations (
            id text primary key,
            title text not null default '',
            created text not null,
            updated text not null,
            pinned integer not null default 0,
            archived integer not null default 0,
            model text not null default '',
            activity integer not null default 0
        )"""
    )
    # `activity` is a counter bumped by each new message: timestamps can tie within a clock tick.
    db.execute("create index conversations_order on conversations (pinned desc, activity desc)")
    db.execute("create index conversations_activity on conversations (activity)")


@MIGRATIONS
@_atomic
def m002_messages(db: sqlite_utils.Database) -> None:
    # `n` is an explicit INTEGER PRIMARY KEY so rowids survive VACUUM (the FTS index keys on it).
    db.execute(
        """create table messages (
            n integer primary key,
            id text not null unique,
            conversation_id text not null references conversations(id) on delete cascade,
            seq integer not null,
            role text not null check (role in ('system', 'user', 'assistant', 'tool')),
            content text not null default '',
            reasoning text not null default '',
            tool_calls text not null default '[]',
            tool_call_id text not null default '',
            tool_name text not null default '',
            tool_ok integer,
            sources text not null default '[]',
            attachments text not null default '[]',
            model text not null default '',
            engine text not null default '',
            prompt_tokens integer not null default 0,
            cached_prompt_tokens integer not null default 0,
            completion_tokens integer not null default 0,
            timings text not null default '{}',
            status text not null default 'complete' check (status in
                ('complete', 'streaming', 'interrupted', 'cancelled', 'error')),
            created text not null,
            unique (conversation_id, seq)
        )"""
    )
    # Finds answers a crash left 'streaming' without scanning every message at start-up.
    db.execute("create index messages_status on messages (status) where status = 'streaming'")


@MIGRATIONS
@_atomic
def m003_message_search(db: sqlite_utils.Database) -> None:
    # External-content FTS5: the text lives once, in `messages`; triggers keep the index in step.
    db.execute(
        """create virtual table messages_fts using fts5 (
            content, reasoning,
            content='messages', content_rowid='n',
            tokenize='unicode61 remove_diacritics 2'
        )"""
    )
    db.execute(
        """create trigger messages_fts_insert after insert on messages begin
            insert into messages_fts (rowid, content, reasoning)
            values (new.n, new.content, new.reasoning);
        end"""
    )
    db.execute(
        """create trigger messages_fts_delete after delete on messages begin
            insert into messages_fts (messages_fts, rowid, content, reasoning)
            values ('delete', old.n, old.content, old.reasoning);
        end"""
    )
    # Only when the text changes: status and token updates must not re-index the message.
    db.execute(
        """create trigger messages_fts_update after update of content, reasoning on messages
        begin
            insert into messages_fts (messages_fts, rowid, content, reasoning)
            values ('delete', old.n, old.content, old.reasoning);
            insert into messages_fts (rowid, content, reasoning)
            values (new.n, new.content, new.reasoning);
        end"""
    )
    db.execute("insert into messages_fts (messages_fts) values ('rebuild')")  # existing messages


@MIGRATIONS
@_atomic
def m004_message_writer(db: sqlite_utils.Database) -> None:
    # Which open store streams a message, so a store opening beside a live one (the CLI next
    # to the window) does not mark that one's answer as interrupted. See lease.py.
    db.execute("alter table messages add column writer text not null default ''")


@MIGRATIONS
@_atomic
def m005_title_search(db: sqlite_utils.Database) -> None:
    # Titles are searchable too (a user types the title they remember). Keyed by the
    # conversation's id, not its rowid: `conversations` has a text key, and VACUUM may renumber
    # the rowids of such a table. Conversations are few, so finding a title by id scans little.
    db.execute(
        """create virtual table conversations_fts using fts5 (
            title, conversation_id unindexed,
            tokenize='unicode61 remove_diacritics 2'
        )"""
    )
    db.execute(
        """create trigger conversations_fts_insert after insert on conversations begin
            insert into conversations_fts (title, conversation_id) values (new.title, new.id);
        end"""
    )
    db.execute(
        """create trigger conversations_fts_delete after delete on conversations begin
            delete from conversations_fts where conversation_id = old.id;
        end"""
    )
    # Only a rename re-indexes: pinning, archiving and new messages also update the row.
    db.execute(
        """create trigger conversations_fts_update after update of title on conversations
        begin
            update conversations_fts set title = new.title where conversation_id = old.id;
        end"""
    )
    db.execute("insert into conversations_fts (title, conversation_id) select title, id"
               " from conversations")  # existing conversations


@MIGRATIONS
@_atomic
def m006_message_notice_and_summary(db: sqlite_utils.Database) -> None:
    # `notice`: Hearth cut the model short ("thinking_cut", "answer_loop", "tool_loop"); the
    # chat shows it beside the answer. `summary_of`: a system message that summarizes the
    # messages up to this seq for the model (the originals stay, shown and exported as they were).
    db.execute("alter table messages add column notice text not null default ''")
    db.execute("alter table messages add column summary_of integer not null default 0")


@MIGRATIONS
@_atomic
def m007_answer_alternatives(db: sqlite_utils.Database) -> None:
    # Regenerate keeps the earlier answer: one row per answer to a user message (`anchor_id`),
    # numbered from 1. The one shown lives in `messages` (its row has `messages` NULL); each
    # other keeps its messages (the answer and all that followed it) as JSON rows here until
    # the user switches back to it. Deleting the conversation deletes them (cascade).
    db.execute(
        """create table answer_alternatives (
            conversation_id text not null references conversations(id) on delete cascade,
            anchor_id text not null,
            position integer not null,
            messages text,
            primary key (anchor_id, position)
        )"""
    )
    db.execute("create index answer_alternatives_conversation"
               " on answer_alternatives (conversation_id)")


@MIGRATIONS
@_atomic
def m008_tool_card_state(db: sqlite_utils.Database) -> None:
    # What a tool result's card showed (its data: a written file, passages; denied; undone), so
    # a reopened chat draws the card as it was, not from the model-facing text alone.
    db.execute("alter table messages add column card text not null default '{}'")
