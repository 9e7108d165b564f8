import asyncio, json
from aiperf.accuracy.graders.multiple_choice import MultipleChoiceGrader
from aiperf.accuracy.graders.exact_match import ExactMatchGrader
from aiperf.accuracy.graders.gsm8k_grader import LightevalGSM8KGrader
from aiperf.accuracy.graders.mmlu_pro import MMLUProGrader
from aiperf.accuracy.graders._choice_extract import extract_choice_letter
cases = {
 "multiple_choice": [(" B\n\nQuestion:", " B"), ("The answer is (C).", " C"), ("A. 0, B. 4, C. 2, D. 6\nSo Answer: B", " B"),
   ("I think B is right", " B"), ("**D**", " D"), ("none", " A"), ("", " A"), ("maybe the answer is A ... actually the answer is B", " B"),
   ("Answer:  D\nmore", " D"), ("éB", " B"), ("\u00a0C\u00a0", " C")],
 "exact_match": [(" yes ", "yes"), ("Yes", "yes"), ("", "x"), ("  ", ""), ("(A)", "(A)")],
 "lighteval_gsm8k": [("#### 24", "blah\n#### 24"), ("so the answer is 24.0", "#### 24"), ("no number", "#### 5"),
   ("#### 1,234", "#### 1234"), ("-3 apples", "#### -3"), ("1.2.3", "#### 1.2.3"), ("#### 5.", "#### 5"), ("12 then 13", "#### 12")],
 "mmlu_pro": [("J", "J"), ("The answer is (H)", "H"), ("Answer: C", "C"), ("blah FLAG E", "E"), ("", "A")],
}
graders = {"multiple_choice": MultipleChoiceGrader, "exact_match": ExactMatchGrader, "lighteval_gsm8k": LightevalGSM8KGrader, "mmlu_pro": MMLUProGrader}
out = []
for name, cs in cases.items():
    g = graders[name](run=None)
    for resp, gold in cs:
        r = asyncio.run(g.grade(resp, gold))
        out.append({"grader": name, "response": resp, "gold": gold, "correct": r.correct, "unparsed": r.unparsed,
                    "extracted": r.extracted_answer, "ground_truth": r.ground_truth, "reasoning": r.reasoning})
for t in ["The answer is (B) but answer is C", "x Answer: D y", "A then B", "FLAG", "answer is J"]:
    for letters in ["ABCD", "ABCDEFGHIJ"]:
        l, tier = extract_choice_letter(t, letters)
        out.append({"extract": t, "letters": letters, "letter": l, "tier": tier})
print(json.dumps(out, ensure_ascii=False, indent=0))
