compile tests/hostile/arena_over_limit.py -o build/hostile/out --set memplan.arena_limit=1M
