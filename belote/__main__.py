from belote.cli import main

main()
