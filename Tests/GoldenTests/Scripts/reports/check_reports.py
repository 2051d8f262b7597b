#!/usr/bin/env python3
"""Validates authsh run reports: JUnit XML (the common testsuites/testsuite/testcase shape CI
servers read, plus junit.xsd with xmllint when it is installed), TAP 13, the versioned JSON report,
and that no forbidden text (secrets, passwords, JWTs) appears in any of them.

usage: check_reports.py JUNIT TAP JSON [--forbid TEXT]... [--output FILE]...
Prints one line per check; exits 1 on the first failure."""
import json
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

JWT = re.compile(r"eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}")


def fail(message):
    print(f"FAIL {message}")
    sys.exit(1)


def count(element, name):
    value = element.get(name)
    if value is None or not re.fullmatch(r"\d+", value):
        fail(f"<{element.tag} name={element.get('name')!r}> has no integer {name}= ({value!r})")
    return int(value)


def seconds(element):
    value = element.get("time")
    try:
        number = float(value)
    except (TypeError, ValueError):
        fail(f"<{element.tag} name={element.get('name')!r}> has no numeric time= ({value!r})")
    if number < 0:
        fail(f"negative time on <{element.tag}>")
    return number


def check_junit(path):
    root = ET.parse(path).getroot()
    if root.tag != "testsuites":
        fail(f"root is <{root.tag}>, not <testsuites>")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for suite in root:
        if suite.tag != "testsuite":
            fail(f"<testsuites> holds <{suite.tag}>")
        if not suite.get("name"):
            fail("a <testsuite> has no name")
        seconds(suite)
        cases = suite.findall("testcase")
        if len(list(suite)) != len(cases):
            fail(f"<testsuite {suite.get('name')}> holds something other than <testcase>")
        found = {"tests": len(cases), "failures": 0, "errors": 0, "skipped": 0}
        for case in cases:
            if not case.get("name") or not case.get("classname"):
                fail("a <testcase> lacks name or classname")
            seconds(case)
            outcomes = [child.tag for child in case]
            if len(outcomes) > 1 or any(tag not in ("failure", "error", "skipped") for tag in outcomes):
                fail(f"<testcase {case.get('name')}> has children {outcomes}")
            for tag, key in (("failure", "failures"), ("error", "errors"), ("skipped", "skipped")):
                if tag in outcomes:
                    found[key] += 1
                    child = case.find(tag)
                    if tag != "skipped" and not (child.get("message") and (child.text or "").strip()):
                        fail(f"<{tag}> of {case.get('name')} needs a message and the rendered error")
        for key, value in found.items():
            if count(suite, key) != value:
                fail(f"<testsuite {suite.get('name')}> says {key}={suite.get(key)}, counted {value}")
            totals[key] += value
    for key, value in totals.items():
        if count(root, key) != value:
            fail(f"<testsuites> says {key}={root.get(key)}, counted {value}")
    seconds(root)
    print(f"ok junit: {len(root)} suites, {totals}")
    schema = os.path.join(os.path.dirname(os.path.abspath(__file__)), "junit.xsd")
    if shutil.which("xmllint"):
        result = subprocess.run(["xmllint", "--noout", "--schema", schema, path], capture_output=True, text=True)
        if result.returncode != 0:
            fail(f"xmllint --schema junit.xsd: {result.stderr.strip()}")
        print("ok junit: valid against junit.xsd (xmllint)")
    else:
        print("skip xmllint: not installed")
    return totals


def check_tap(path, totals):
    lines = open(path, encoding="utf-8").read().split("\n")
    if lines[0] != "TAP version 13":
        fail("TAP: first line is not 'TAP version 13'")
    plan = re.fullmatch(r"1\.\.(\d+)", lines[1])
    if not plan:
        fail(f"TAP: no plan on line 2 ({lines[1]!r})")
    points, failed, errored, skipped, in_yaml = 0, 0, 0, 0, False
    for line in lines[2:]:
        if in_yaml:
            if line == "  ...":
                in_yaml = False
            elif not line.startswith("  "):
                fail(f"TAP: YAML block line not indented: {line!r}")
            continue
        if line == "  ---":
            in_yaml = True
            continue
        match = re.fullmatch(r"(ok|not ok) (\d+) - (.*)", line)
        if match:
            points += 1
            if int(match.group(2)) != points:
                fail(f"TAP: test point {match.group(2)} out of order")
            if match.group(1) == "not ok":
                failed += 1
                if re.search(r"(?<!\\)# error$", match.group(3)):
                    errored += 1
            if re.search(r"(?<!\\)# SKIP", match.group(3)):
                skipped += 1
            continue
        if line:
            fail(f"TAP: unexpected line {line!r}")
    if in_yaml:
        fail("TAP: unterminated YAML block")
    if points != int(plan.group(1)):
        fail(f"TAP: plan says {plan.group(1)}, found {points}")
    if points != totals["tests"] or failed != totals["failures"] + totals["errors"] or skipped != totals["skipped"]:
        fail(f"TAP counts {points}/{failed}/{skipped} differ from JUnit {totals}")
    # Files that did not check are JUnit errors too, but plain `not ok` points in TAP.
    if errored > totals["errors"]:
        fail(f"TAP has {errored} '# error' points, JUnit only {totals['errors']} errors")
    print(f"ok tap: {points} points, {failed} not ok ({errored} # error), {skipped} skipped")


def check_json(path, totals):
    report = json.load(open(path, encoding="utf-8"))
    if report.get("version") != 1 or report.get("tool") != "authsh":
        fail("JSON: version 1 / tool authsh expected")
    summary = report["summary"]
    if summary["failed"] != totals["failures"] + totals["errors"] or summary["skipped"] != totals["skipped"]:
        fail(f"JSON summary {summary} differs from JUnit {totals}")
    errors = 0
    for file in report["files"]:
        for test in file["tests"]:
            if test["status"] not in ("passed", "failed", "skipped"):
                fail(f"JSON: status {test['status']!r}")
            if (test["status"] == "failed") != (test["failure"] is not None):
                fail(f"JSON: failure object does not match status of {test['name']!r}")
            expected = "error" if test["failure"] and test["failure"]["kind"] == "backend" else test["status"]
            if test.get("outcome") != expected:
                fail(f"JSON: outcome {test.get('outcome')!r} of {test['name']!r}, expected {expected!r}")
            errors += test["outcome"] == "error"
    if summary["errors"] != errors:
        fail(f"JSON: summary says {summary['errors']} errors, tests say {errors}")
    print(f"ok json: version 1, {len(report['files'])} files, exit_code {summary['exit_code']}")


def main(argv):
    if len(argv) < 3:
        print(__doc__)
        return 2
    junit, tap, report = argv[:3]
    forbidden, outputs, rest = [], [], argv[3:]
    while rest:
        flag, value, rest = rest[0], rest[1], rest[2:]
        (forbidden if flag == "--forbid" else outputs).append(value)
    totals = check_junit(junit)
    check_tap(tap, totals)
    check_json(report, totals)
    for path in [junit, tap, report] + outputs:
        text = open(path, encoding="utf-8").read()
        for secret in forbidden:
            if secret in text:
                fail(f"{os.path.basename(path)} contains a forbidden value ({secret[:3]}…)")
        if JWT.search(text):
            fail(f"{os.path.basename(path)} contains a JWT")
    print(f"ok secrets: none of {len(forbidden)} values nor any JWT in {3 + len(outputs)} files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
