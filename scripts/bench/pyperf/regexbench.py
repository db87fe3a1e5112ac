# re: findall, sub and match over generated text (pyperformance: regex_effbot, regex_v8).
import re

def main():
    text = " ".join("user%d@host%d.example.com 2024-%02d-%02d id=%d" % (i, i % 13, i % 12 + 1, i % 28 + 1, i * 31)
                    for i in range(20000))
    emails = re.findall(r"[\w.]+@[\w.]+\.com", text)
    dates = re.findall(r"\d{4}-\d{2}-\d{2}", text)
    swapped = re.sub(r"(\d{4})-(\d{2})-(\d{2})", r"\3/\2/\1", text)
    ids = sum(int(m.group(1)) for m in re.finditer(r"id=(\d+)", text))
    words = len(re.split(r"\s+", text))
    print(len(emails), len(dates), len(swapped), ids, words)

main()
