#!/usr/bin/env python3
"""A scripted model on 127.0.0.1 for driving real Claude Code and Codex turns.

It speaks just enough of two wire protocols for a host to run a turn:

- Anthropic's Messages API (POST /v1/messages, streamed or not), for Claude
  Code pointed at it with ANTHROPIC_BASE_URL;
- OpenAI's Responses API (POST /v1/responses, streamed), for Codex pointed
  at it by a custom model provider's base_url.

What the "model" does is a program chosen by a marker in the conversation's
first user message (`PROGRAM: name`); the step is the number of assistant
turns already in the conversation (each turn is one block or item), so a stop hook's block (which the host
feeds back as a new user message) simply moves the program on. Every request
is appended to a JSON-lines log (the program, the step, the last user text,
the whole body), which test/hosts/run.sh reads to check what reached the
model: a SessionStart hook's additionalContext, a Stop hook's block reason.

Standard library only. Run: mock_model.py --port-file F --log L; it prints
nothing, writes its port to F, and serves until killed (or --max-seconds).
"""

import argparse
import json
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOG_LOCK = threading.Lock()

# A program is a list of steps; each step is one assistant turn:
#   ("text", "...")                      a message that ends the turn
#   ("shell", "command")                 run a shell command (Bash / shell tool)
#   ("shell_bg", "command")              Claude Code: the same in the background
#   ("subagent", "prompt")               start a subagent with this prompt (and wait)
#   ("subagent_bg", "prompt")            Claude Code: the same in the background
#   ("wait", "")                         Codex: wait for the subagent spawned
# Past the last step, the model says it is done.
COMMIT = "git add -A && git commit -q -m 'the greeting, with its test' && echo committed"
PROGRAMS = {
    # Edit a file, try to stop (blocked: the work is not committed), commit, stop.
    "basic": [
        ("shell", "mkdir -p tests && printf 'fn greet() {}\\n' > greet.rs && printf 'greet\\n' > tests/greet_test.txt"),
        ("text", "Done: greet.rs is written."),
        ("shell", COMMIT),
        ("text", "Committed; the work is done."),
    ],
    # A subagent (in the foreground) writes a file and tries to stop
    # (SubagentStop is blocked); it then says the rest is the main agent's,
    # and is let through; the main agent commits and stops.
    "subagent": [
        ("subagent", "PROGRAM: sub-worker"),
        ("shell", COMMIT),
        ("text", "The subagent's work is committed; done."),
    ],
    # The same subagent in the background (Claude Code's default): the main
    # agent stops while it runs (a pause), is woken when it ends, commits.
    "subagent-bg": [
        ("subagent_bg", "PROGRAM: sub-worker"),
        ("text", "The subagent works in the background; I will wait."),
        ("shell", COMMIT),
        ("text", "The subagent's work is committed; done."),
    ],
    # The same through Codex's multi-agent tools: spawn, then wait for it.
    "codex-subagent": [
        ("subagent", "PROGRAM: sub-worker"),
        ("wait", ""),
        ("shell", COMMIT),
        ("text", "The subagent's work is committed; done."),
    ],
    "sub-worker": [
        ("shell", "mkdir -p tests && printf 'fn sub() {}\\n' > sub.rs && printf 'sub\\n' > tests/sub_test.txt"),
        ("text", "Subagent: sub.rs is written."),
        ("text", "Subagent: committing is the main agent's part, not mine; stopping."),
        ("text", "Subagent: stopping."),
    ],
    # Background work still running at the stop: a pause, not a block.
    "background": [
        ("shell_bg", "sleep 8; echo finished > bg.txt"),
        ("text", "The background job runs; I will wait for it."),
        ("shell", "mkdir -p tests && printf 'bg\\n' > tests/bg_test.txt && " + COMMIT),
        ("text", "The background job finished and everything is committed."),
    ],
    # Edit, commit, run the policy's gate through majordomus from the host's
    # shell, as an agent would: where `gate run` says the run's environment
    # is not the start's (Codex puts a directory of its own in front of
    # PATH), run the command it gives; then stop. The pass must count.
    "gate": [
        ("shell", "mkdir -p tests && printf 'fn greet() {}\\n' > greet.rs && printf 'greet\\n' > tests/greet_test.txt && " + COMMIT),
        ("shell", "out=$(majordomus gate run unit 2>&1); printf '%s\\n' \"$out\"; "
                  "again=$(printf '%s\\n' \"$out\" | sed -n 's/.*to run it as at the start: //p'); "
                  "if [ -n \"$again\" ]; then eval \"$again\"; fi && echo gate-passed"),
        ("text", "Committed, and the gate passed; the work is done."),
    ],
    # Writes work it leaves uncommitted, takes majordomus's hooks out of the
    # project's settings (each host's file, one command each: Claude Code
    # asks before a write to its own settings, and refuses it unasked), and
    # stops: the host runs the hooks it started the session with, so the
    # stop is still blocked.
    "unhook": [
        ("shell", "printf 'fn greet() {}\\n' > greet.rs && echo wrote"),
        ("shell", "printf '{}\\n' > .claude/settings.json && echo unhooked"),
        ("shell", "mkdir -p .codex && printf '{}\\n' > .codex/hooks.json && echo unhooked"),
        ("text", "Done: greet.rs is written."),
        ("text", "Done, again."),
    ],
    # Commits its work, then turns every hook off in the project's local
    # settings (git ignores that file) and stops: the question is what the
    # host does with that write and with the hooks of this session and the
    # next.
    "disable": [
        ("shell", "mkdir -p tests && printf 'fn greet() {}\\n' > greet.rs && printf 'greet\\n' > tests/greet_test.txt && " + COMMIT),
        ("shell", "printf '{\"disableAllHooks\": true}\\n' > .claude/settings.local.json && echo disabled"),
        ("text", "Committed; the work is done."),
        ("text", "Done, again."),
    ],
    # Stops at once, with nothing done: for the loop guard and session starts.
    "idle": [
        ("text", "Nothing to do."),
        ("text", "Still nothing to do."),
        ("text", "Nothing, again."),
        ("text", "Nothing, once more."),
    ],
}


def text_of(content):
    """The text of a message's content (a string, or blocks of any kind)."""
    if isinstance(content, str):
        return content
    out = []
    for block in content or []:
        if not isinstance(block, dict):
            continue
        for key in ("text", "content", "output"):
            value = block.get(key)
            if isinstance(value, str):
                out.append(value)
            elif isinstance(value, list):
                out.append(text_of(value))
    return "\n".join(out)


def program_of(texts):
    for t in texts:
        m = re.search(r"PROGRAM: ([\w-]+)", t)
        if m:
            return m.group(1)
    return None


def log(path, record):
    with LOG_LOCK, open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(record) + "\n")


# ---- Anthropic Messages API --------------------------------------------------


def anthropic_turn(body):
    """The program, its step and the assistant content for a Messages request."""
    messages = body.get("messages", [])
    users = [text_of(m.get("content")) for m in messages if m.get("role") == "user"]
    program = program_of(users)
    # One block per turn: Claude Code may merge consecutive assistant turns
    # into one message, so the blocks are counted, not the messages.
    step = sum(
        1 if isinstance(m.get("content"), str) else sum(1 for b in m.get("content") or [] if isinstance(b, dict) and b.get("type") in ("text", "tool_use"))
        for m in messages
        if m.get("role") == "assistant"
    )
    tools = {t.get("name") for t in body.get("tools", []) if isinstance(t, dict)}
    if program is None or not tools:
        # A side request (a title, a summary, a classifier): plain text.
        return program, step, [{"type": "text", "text": "ok"}], "end_turn"
    steps = PROGRAMS.get(program, [])
    kind, arg = steps[step] if step < len(steps) else ("text", "Done.")
    tool_id = f"toolu_{program}_{step}"
    if kind == "shell":
        return program, step, [{"type": "tool_use", "id": tool_id, "name": "Bash", "input": {"command": arg, "description": "run"}}], "tool_use"
    if kind == "shell_bg":
        return program, step, [{"type": "tool_use", "id": tool_id, "name": "Bash", "input": {"command": arg, "description": "background job", "run_in_background": True}}], "tool_use"
    if kind in ("subagent", "subagent_bg"):
        name = "Agent" if "Agent" in tools else "Task"
        task = {"description": "a subagent's part", "prompt": arg, "subagent_type": "general-purpose"}
        task["run_in_background"] = kind == "subagent_bg"
        return program, step, [{"type": "tool_use", "id": tool_id, "name": name, "input": task}], "tool_use"
    return program, step, [{"type": "text", "text": arg}], "end_turn"


def anthropic_stream(content, stop_reason, model):
    def event(name, data):
        return f"event: {name}\ndata: {json.dumps(data)}\n\n".encode()

    out = [event("message_start", {"type": "message_start", "message": {
        "id": "msg_mock", "type": "message", "role": "assistant", "model": model, "content": [],
        "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 1}}})]
    for i, block in enumerate(content):
        if block["type"] == "text":
            out.append(event("content_block_start", {"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}}))
            out.append(event("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {"type": "text_delta", "text": block["text"]}}))
        else:
            out.append(event("content_block_start", {"type": "content_block_start", "index": i, "content_block": {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}}))
            out.append(event("content_block_delta", {"type": "content_block_delta", "index": i, "delta": {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}}))
        out.append(event("content_block_stop", {"type": "content_block_stop", "index": i}))
    out.append(event("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop_reason, "stop_sequence": None}, "usage": {"output_tokens": 5}}))
    out.append(event("message_stop", {"type": "message_stop"}))
    return b"".join(out)


# ---- OpenAI Responses API ------------------------------------------------------


def responses_turn(body):
    """The program, its step and the output items for a Responses request."""
    items = body.get("input", [])
    users = [text_of(i.get("content")) for i in items if isinstance(i, dict) and i.get("role") == "user"]
    instructions = body.get("instructions") or ""
    program = program_of(users + [instructions])
    step = sum(1 for i in items if isinstance(i, dict) and (i.get("role") == "assistant" or i.get("type") == "function_call"))
    tools = {t.get("name") for t in body.get("tools", []) if isinstance(t, dict)}
    if program is None:
        return program, step, [message_item("ok")]
    steps = PROGRAMS.get(program, [])
    kind, arg = steps[step] if step < len(steps) else ("text", "Done.")
    call_id = f"call_{program}_{step}_{int(time.time() * 1000) % 100000}"
    if kind == "subagent_bg":
        kind = "subagent"
    if kind in ("shell", "shell_bg"):
        if "exec_command" in tools:
            return program, step, [call_item("exec_command", {"cmd": arg, "yield_time_ms": 10000}, call_id)]
        name = "shell_command" if "shell_command" in tools else "shell"
        args = {"command": arg} if name == "shell_command" else {"command": ["bash", "-lc", arg]}
        return program, step, [call_item(name, args, call_id)]
    namespaced = {
        s.get("name"): t.get("name")
        for t in body.get("tools", [])
        if isinstance(t, dict) and t.get("type") == "namespace"
        for s in t.get("tools", [])
    }
    if kind == "subagent":
        if "spawn_agent" in namespaced or "spawn_agent" in tools:
            return program, step, [call_item("spawn_agent", {"message": arg}, call_id, namespaced.get("spawn_agent"))]
        return program, step, [message_item("(no subagent tool offered)")]
    if kind == "wait":
        # The agent id is in the output of the spawn call.
        outputs = [i.get("output") for i in items if isinstance(i, dict) and i.get("type") == "function_call_output"]
        found = re.findall(r'"(?:agent_id|id)"\s*:\s*"([^"]+)"', text_of([{"text": o} for o in outputs if isinstance(o, str)]))
        target = found[-1] if found else ""
        return program, step, [call_item("wait_agent", {"targets": [target], "timeout_ms": 60000}, call_id, namespaced.get("wait_agent"))]
    return program, step, [message_item(arg)]


def message_item(text):
    return {"type": "message", "role": "assistant", "id": "msg_mock", "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}]}


def call_item(name, args, call_id, namespace=None):
    item = {"type": "function_call", "id": "fc_" + call_id, "status": "completed", "name": name,
            "arguments": json.dumps(args), "call_id": call_id}
    if namespace:
        item["namespace"] = namespace
    return item


def responses_stream(items):
    def event(data):
        return f"event: {data['type']}\ndata: {json.dumps(data)}\n\n".encode()

    response = {"id": "resp_mock", "object": "response", "status": "in_progress", "output": []}
    out = [event({"type": "response.created", "response": response})]
    for i, item in enumerate(items):
        out.append(event({"type": "response.output_item.added", "output_index": i, "item": item}))
        out.append(event({"type": "response.output_item.done", "output_index": i, "item": item}))
    done = dict(response, status="completed", output=items,
                usage={"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
                       "output_tokens": 5, "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15})
    out.append(event({"type": "response.completed", "response": done}))
    return b"".join(out)


# ---- the server ----------------------------------------------------------------


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):  # quiet
        pass

    def reply(self, status, body, content_type="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        # Model listings and health checks: an empty, valid answer.
        if self.path.rstrip("/").endswith("/models") or "/models?" in self.path:
            return self.reply(200, json.dumps({"data": [], "models": [], "object": "list"}).encode())
        self.reply(200, b"{}")

    def do_HEAD(self):
        self.reply(200, b"")

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {}
        path = self.path.split("?")[0]
        if path.endswith("/messages/count_tokens"):
            return self.reply(200, b'{"input_tokens": 10}')
        if path.endswith("/messages"):
            program, step, content, stop_reason = anthropic_turn(body)
            users = [text_of(m.get("content")) for m in body.get("messages", []) if m.get("role") == "user"]
            log(self.server.log_path, {"api": "anthropic", "program": program, "step": step,
                                       "last_user": users[-1] if users else "", "reply": content, "body": body})
            if body.get("stream"):
                return self.reply(200, anthropic_stream(content, stop_reason, body.get("model", "mock")), "text/event-stream")
            message = {"id": "msg_mock", "type": "message", "role": "assistant", "model": body.get("model", "mock"),
                       "content": content, "stop_reason": stop_reason, "stop_sequence": None,
                       "usage": {"input_tokens": 10, "output_tokens": 5}}
            return self.reply(200, json.dumps(message).encode())
        if path.endswith("/responses"):
            program, step, items = responses_turn(body)
            users = [text_of(i.get("content")) for i in body.get("input", []) if isinstance(i, dict) and i.get("role") in ("user", "developer")]
            log(self.server.log_path, {"api": "responses", "program": program, "step": step,
                                       "last_user": users[-1] if users else "", "reply": items, "body": body})
            return self.reply(200, responses_stream(items), "text/event-stream")
        log(self.server.log_path, {"api": "other", "path": self.path, "body": body})
        self.reply(404, b'{"error": {"type": "not_found", "message": "the mock answers /v1/messages and /v1/responses"}}')


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port-file", required=True)
    parser.add_argument("--log", required=True)
    parser.add_argument("--max-seconds", type=int, default=1800)
    args = parser.parse_args()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.log_path = args.log
    server.daemon_threads = True
    with open(args.port_file, "w") as f:
        f.write(str(server.server_address[1]))
    # A bound on its own life: the harness kills it, but never leave it behind.
    threading.Timer(args.max_seconds, lambda: server.shutdown()).start()
    server.serve_forever()
    sys.exit(0)


if __name__ == "__main__":
    main()
