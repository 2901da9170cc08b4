compile tests/hostile/object_parameter.py -o build/hostile/out
