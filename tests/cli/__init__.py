"""The `hearth` commands of no single area (ask, chat, models, history; the prefix a second `hearth ask`
process starts from), driven through app.main.main or in a process of their own."""
