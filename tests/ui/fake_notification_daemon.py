"""A stand-in desktop notification service on a private session bus (for tests): answers
Notify like dunst or GNOME do, prints each call as JSON, and presses a button of each one
("Open me…" -> open, anything else -> snooze) as a person would."""

from __future__ import annotations

import json
import sys

from jeepney import DBusAddress, HeaderFields, MessageType, new_method_return, new_signal
from jeepney.bus_messages import message_bus
from jeepney.io.blocking import open_dbus_connection

SERVICE = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"


def main() -> None:
    conn = open_dbus_connection(bus="SESSION")
    conn.send_and_get_reply(message_bus.RequestName(SERVICE))
    print(json.dumps({"ready": True}), flush=True)
    emitter = DBusAddress(PATH, interface=SERVICE)
    count = 0
    while True:
        msg = conn.receive()
        fields = msg.header.fields
        if msg.header.message_type != MessageType.method_call:
            continue
        member = fields.get(HeaderFields.member)
        if member == "GetCapabilities":
            conn.send(new_method_return(msg, "as", (["actions", "body"],)))
        elif member == "Notify":
            count += 1
            app, replaces, icon, summary, body, actions, hints, timeout = msg.body
            print(json.dumps({"signature": fields.get(HeaderFields.signature), "app": app,
                              "summary": summary, "body": body, "actions": actions}),
                  flush=True)
            conn.send(new_method_return(msg, "u", (count,)))
            key = "open" if summary.startswith("Open me") else "snooze"
            # Sent to the notification's sender only, as KDE does (the strictest case).
            signal = new_signal(emitter, "ActionInvoked", "us", (count, key))
            signal.header.fields[HeaderFields.destination] = fields[HeaderFields.sender]
            conn.send(signal)
        else:
            print(json.dumps({"other": member}), file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
