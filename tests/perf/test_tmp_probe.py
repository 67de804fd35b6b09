from league import caching
from tests.perf.conftest import counting

def test_probe(measured):
    client = measured.client(signed_in=True)
    path = f"/leagues/{measured.league_id}/stats"
    client.get(path)
    caching.shared_pages.clear()
    with counting(measured.engine) as c:
        client.get(path)
    for s in c.statements:
        print("----", s[:300].replace("\n", " "))
