"""API errors in OpenAI's shape: an HTTP status and {"error": {message, type, param, code}}."""

from __future__ import annotations

from backends.errors import FailureKind
from skills.common.limits import LIMITS, cut_text


class ApiError(Exception):
    """A request the server answers with an error; str(error) is the one-line reason."""

    def __init__(self, status: int, message: str, *, type: str = "invalid_request_error",
                 code: str | None = None, param: str | None = None,
                 headers: dict[str, str] | None = None,
                 extra: dict[str, object] | None = None) -> None:
        message = cut_text(message, LIMITS.log_field_bytes * 4)  # it may quote a 10 MB name
        super().__init__(message)
        self.status = status
        self.message = message
        self.type = type
        self.code = code
        self.param = param
        self.headers = headers or {}
        self.extra = extra or {}  # more fields for the error object (token counts)

    def body(self) -> dict[str, object]:
        return {"error": {"message": self.message, "type": self.type, "param": self.param,
                          "code": self.code, **self.extra}}


def bad_request(message: str, param: str | None = None, code: str | None = None) -> ApiError:
    return ApiError(400, message, param=param, code=code)


# How an engine failure that ends a generation reads to an API client.
_KIND_STATUS: dict[FailureKind, tuple[int, str]] = {
    FailureKind.NO_MODEL: (503, "model_not_loaded"),
    FailureKind.CONTEXT_FULL: (400, "context_length_exceeded"),
    FailureKind.BAD_INPUT: (400, "invalid_request"),
    FailureKind.BUSY: (503, "busy"),
    FailureKind.CANCELLED: (503, "cancelled"),
}


def from_failure(kind: FailureKind | None, message: str) -> ApiError:
    status, code = _KIND_STATUS.get(kind or FailureKind.ENGINE_FAILED, (500, "engine_failed"))
    error_type = "invalid_request_error" if status == 400 else "server_error"
    headers = {"Retry-After": "5"} if status == 503 else None
    return ApiError(status, message, type=error_type, code=code, headers=headers)
