"""The OpenAI-compatible HTTP server that lets other programs use Hearth's loaded model."""

from app.core.server.errors import ApiError
from app.core.server.keys import ensure_api_key, new_api_key
from app.core.server.log import RequestLog, RequestRecord
from app.core.server.service import ApiServer, ServerConfig

__all__ = ["ApiError", "ApiServer", "RequestLog", "RequestRecord", "ServerConfig",
           "ensure_api_key", "new_api_key"]
