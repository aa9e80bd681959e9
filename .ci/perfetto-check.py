"""Decodes `rewind export --format perfetto` with Perfetto's own protos (the `perfetto` package on
PyPI) and holds every track, slice, instant, flow, counter and annotation against the same journal's
`rewind export --format jsonl`. Usage: python3 perfetto-check.py REWIND JOURNAL..."""
import json
import os
import subprocess
import sys
import tempfile

from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as proto

BEGIN, END, INSTANT, COUNTER = 1, 2, 3, 4
problems = []


def check(condition, message):
    if not condition:
        problems.append(message)


def value_of(annotation):
    kind = annotation.WhichOneof("value")
    return getattr(annotation, kind) if kind else None


def same(json_value, annotation_value):
    if isinstance(json_value, bool) or isinstance(json_value, (int, float)) or isinstance(json_value, str):
        return json_value == annotation_value
    return isinstance(annotation_value, str)  # lists and objects are written as the log shows them


def check_journal(rewind, journal, scratch):
    trace_path = os.path.join(scratch, os.path.basename(journal) + ".pftrace")
    subprocess.run([rewind, "export", journal, "--format", "perfetto", "-o", trace_path], check=True)
    lines = subprocess.run([rewind, "export", journal, "--format", "jsonl"], check=True, capture_output=True, text=True).stdout
    events = [json.loads(line) for line in lines.splitlines()]
    trace = proto.Trace()
    with open(trace_path, "rb") as file:
        data = file.read()
    trace.ParseFromString(data)

    # Interned names, track descriptors and track events, in order.
    event_names, annotation_names, tracks, track_events = {}, {}, {}, []
    check(trace.packet[0].sequence_flags == 1, "the first packet clears the incremental state")
    for packet in trace.packet:
        check(packet.trusted_packet_sequence_id == 1, "every packet is on sequence 1")
        for name in packet.interned_data.event_names:
            event_names[name.iid] = name.name
        for name in packet.interned_data.debug_annotation_names:
            annotation_names[name.iid] = name.name
        if packet.HasField("track_descriptor"):
            tracks[packet.track_descriptor.uuid] = packet.track_descriptor
        if packet.HasField("track_event"):
            track_events.append((packet.timestamp, packet.track_event))

    process = [d for d in tracks.values() if d.HasField("process")]
    check(len(process) == 1 and process[0].process.process_name == os.path.basename(journal), "one process track, named after the file")
    by_name = {d.name: d for d in tracks.values() if not d.HasField("process")}
    sources = sorted({event["source"] for event in events})
    for source in sources:
        check(source in by_name and by_name[source].parent_uuid == process[0].uuid, f"{source}: a unit track under the process")
        check(f"{source} activities" in by_name, f"{source}: an activities track")

    def annotations(event):
        return {annotation_names[a.name_iid]: value_of(a) for a in event.debug_annotations}

    expected = []  # (seq, type, track name, event name or None, annotations to hold)
    running, flows_started, flows_ended = set(), set(), set()
    for event in events:
        kind, source, seq = event["kind"], event["source"], event["seq"]
        if kind in ("willDispatch", "willMutate"):
            expected.append((seq, BEGIN, source, event["name"] or kind, {"input": event["input"]} if "input" in event else {}))
            if kind == "willDispatch":
                running.add(seq)
                flows_started.add(seq)
            parent = event.get("parent")
            if parent is not None and parent not in running:
                flows_ended.add(parent)
        elif kind in ("didDispatch", "didMutate"):
            if kind == "didDispatch" and event.get("parent") is not None:
                running.discard(event["parent"])
            expected.append((seq, END, source, None, {}))
        elif kind == "activity":
            expected.append((seq, INSTANT, f"{source} activities", event["name"], {"value": event["value"]} if "value" in event else {}))
        elif kind in ("created", "released", "replace"):
            expected.append((seq, INSTANT, source, None, {}))
        elif kind == "log":
            # An app's own log message: on its logger's track, named by the message.
            held = {"level": event["level"]}
            if event.get("metadata") is not None:
                held["metadata"] = event["metadata"]
            if event.get("parent") is not None:
                held["dispatch"] = event["parent"]
            expected.append((seq, INSTANT, source, event["message"], held))
        for change in event.get("changes", []):
            held = {"path": change["path"]}
            if "old" in change:
                held["old"] = change["old"]
            if "new" in change:
                held["new"] = change["new"]
            expected.append((seq, INSTANT, source, change["path"], held))
            new = change.get("new")
            if isinstance(new, (int, float)) and not isinstance(new, bool):
                expected.append((seq, COUNTER, f"{source} {change['path']}", None, {"counter": new}))

    made = []
    for timestamp, event in track_events:
        held = annotations(event)
        track = tracks[event.track_uuid]
        name = event_names.get(event.name_iid) if event.HasField("name_iid") else None
        if event.type == COUNTER:
            check(track.HasField("counter"), f"counter sample on a counter track ({track.name})")
            value = event.counter_value if event.HasField("counter_value") else event.double_counter_value
            made.append((timestamp, COUNTER, track.name, None, {"counter": value}, event))
        else:
            check("rewind.seq" in held, f"every event carries rewind.seq ({track.name} {name})")
            made.append((held.get("rewind.seq"), event.type, track.name, name, held, event))

    # Counter samples carry no step: they are matched in order, per track, after the events.
    counters = [m for m in made if m[1] == COUNTER]
    others = [m for m in made if m[1] != COUNTER]
    expected_counters = [e for e in expected if e[1] == COUNTER]
    expected_others = [e for e in expected if e[1] != COUNTER]
    check(len(others) == len(expected_others), f"{len(expected_others)} slices and instants expected, {len(others)} made")
    for want, got in zip(expected_others, others):
        seq, kind, track, name, held = want
        check(got[0] == seq and got[1] == kind and got[2] == track, f"step {seq}: {kind} on {track}, got {got[:3]}")
        if name is not None:
            check(got[3] == name, f"step {seq}: named {name!r}, got {got[3]!r}")
        for key, value in held.items():
            check(key in got[4] and same(value, got[4][key]), f"step {seq}: {key} = {value!r}, got {got[4].get(key)!r}")
    for track in {e[2] for e in expected_counters}:
        want = [e[4]["counter"] for e in expected_counters if e[2] == track]
        got = [c[4]["counter"] for c in counters if c[2] == track]
        # A counter starts at the value before its first change (when that was a number).
        check(got[-len(want):] == want if want else not got, f"{track}: samples {want}, got {got}")

    started = {f for _, e in track_events for f in e.flow_ids}
    ended = {f for _, e in track_events for f in e.terminating_flow_ids}
    check(started == flows_started, f"flows start at every dispatch: {sorted(flows_started - started)} missing")
    check(ended == flows_ended, f"flows end at async work: expected {sorted(flows_ended)}, got {sorted(ended)}")
    check(ended <= started, "every flow that ends was started")
    print(f"perfetto-check: {journal}: {len(events)} events, {len(tracks)} tracks, {len(track_events)} track events, "
          f"{len(ended)} flows, {len(data)} bytes ({len(data) / len(events):.1f} bytes/event)")


def main():
    rewind, journals = sys.argv[1], sys.argv[2:]
    with tempfile.TemporaryDirectory() as scratch:
        for journal in journals:
            check_journal(rewind, journal, scratch)
    for problem in problems[:40]:
        print("perfetto-check:", problem)
    sys.exit(1 if problems else 0)


main()
