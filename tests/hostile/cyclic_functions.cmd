compile tests/hostile/cyclic_functions.py -o build/hostile/out
