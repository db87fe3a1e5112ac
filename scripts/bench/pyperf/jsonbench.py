# json.dumps and json.loads of nested records (pyperformance: json_dumps, json_loads).
import json

def main():
    records = [{"id": i, "name": "user%d" % i, "tags": ["a", "b", str(i % 7)],
                "score": i * 1.5, "active": i % 3 == 0, "nested": {"x": i, "y": [i, i + 1]}}
               for i in range(2000)]
    total = 0
    for _ in range(15):
        text = json.dumps(records)
        back = json.loads(text)
        total += len(text) + len(back)
    print(total)

main()
