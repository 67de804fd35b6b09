from league import create_app

app = create_app()
