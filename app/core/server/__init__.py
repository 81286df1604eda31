"""The OpenAI-compatible HTTP server that lets other programs use Hearth's loaded model.

Nothing is imported here: the ASGI stack (uvicorn, Starlette) loads only when a server starts,
so other commands and the window do not pay for it. Import from the submodules."""
